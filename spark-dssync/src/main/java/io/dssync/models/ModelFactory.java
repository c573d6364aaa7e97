package io.dssync.models;

import ai.djl.nn.Block;
import java.io.Serializable;

/**
 * A model written in Java: implement it in your own jar, ship the jar with {@code --jars} (or
 * {@code spark.jars}) and train it with {@code --model-factory com.example.MyNet}. The class needs a public
 * constructor without arguments; each replica makes its own instance on its executor.
 *
 * <p>{@link #build} returns an <em>uninitialised</em> DJL block that reads a batch of shape
 * (batch, channels, height, width) and returns one array of shape (batch, {@link ModelSpec#outputSize()}):
 * class logits for cross-entropy, one logit for binary, one value per label for regression and multi-label.
 * Do not draw random numbers in it: the replica initialises every parameter from the training seed, so all
 * replicas start from the same model. Trainable parameters are averaged between replicas; parameters that do
 * not require gradients (BatchNorm's running statistics) are averaged too.
 */
public interface ModelFactory extends Serializable {
  /** The block for inputs and outputs of {@code spec} (shape, classes, label width, loss). */
  Block build(ModelSpec spec);

  /** What the block reads: dense values unless it says token or field ids. */
  default Models.Input input() {
    return Models.Input.DENSE;
  }

  /** The loss used unless {@code --loss} chooses another. */
  default LossKind defaultLoss() {
    return LossKind.CLASSIFICATION;
  }
}
