package io.dssync.models;

import java.io.Serializable;

/**
 * What model to build: a name known to {@code io.dssync.models.Models}, the input shape
 * (channels, height, width; an MLP flattens it), the number of classes, the seed of the initial
 * parameters, and for models of id inputs (text, click logs) the number of distinct ids
 * ({@code vocabSize}; 0 for dense inputs, see {@code io.dssync.data.DatasetSplits}).
 */
public record ModelSpec(
    String name, int channels, int height, int width, int numClasses, long seed, int vocabSize)
    implements Serializable {
  /** A model of dense inputs (pixels): no id vocabulary. */
  public ModelSpec(String name, int channels, int height, int width, int numClasses, long seed) {
    this(name, channels, height, width, numClasses, seed, 0);
  }

  public int featureSize() {
    return channels * height * width;
  }
}
