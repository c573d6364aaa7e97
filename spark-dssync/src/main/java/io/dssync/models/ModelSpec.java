package io.dssync.models;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.io.Serializable;

/**
 * What model to build and how it learns: the {@link ModelSource} (a built-in family, a TorchScript
 * file or a user's {@link ModelFactory}; null means the built-in family called {@code name}), the
 * input shape (channels, height, width; an MLP flattens it), the number of classes of a class task
 * (0 for real-valued labels), the seed of the initial parameters, for models of id inputs (text,
 * click logs) the number of distinct ids ({@code vocabSize}; 0 for dense inputs), the label width
 * (floats per example) and the {@link LossKind} (null means the source's own).
 */
public record ModelSpec(
    String name, int channels, int height, int width, int numClasses, long seed, int vocabSize, int labelWidth,
    LossKind loss, @JsonIgnore ModelSource source)
    implements Serializable {
  public ModelSpec {
    labelWidth = Math.max(1, labelWidth);
  }

  /** A built-in model of class labels. */
  public ModelSpec(String name, int channels, int height, int width, int numClasses, long seed, int vocabSize) {
    this(name, channels, height, width, numClasses, seed, vocabSize, 1, null, null);
  }

  /** A built-in model of dense inputs (pixels) and class labels: no id vocabulary. */
  public ModelSpec(String name, int channels, int height, int width, int numClasses, long seed) {
    this(name, channels, height, width, numClasses, seed, 0);
  }

  public int featureSize() {
    return channels * height * width;
  }

  /** Where the model comes from: {@link #source} or, when that is null, the built-in family {@link #name}. */
  public ModelSource modelSource() {
    return source != null ? source : new BuiltInModel(name);
  }

  /** The loss the model trains with: the one set, or the source's own. */
  public LossKind lossKind() {
    return loss != null ? loss : modelSource().defaultLoss();
  }

  /**
   * The width of the model's output that the loss expects: the classes (logits) of a class task, one
   * logit of a binary one, the label width of regression and multi-label tasks, or -1 where the
   * file's own loss decides.
   */
  public int outputSize() {
    return lossKind().outputSize(numClasses, labelWidth);
  }

  /** This spec with another source and loss (the shape, classes and seed kept). */
  public ModelSpec withSource(ModelSource newSource, LossKind newLoss) {
    return new ModelSpec(name, channels, height, width, numClasses, seed, vocabSize, labelWidth, newLoss, newSource);
  }
}
