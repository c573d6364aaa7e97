package io.dssync.replica;

import java.io.Serializable;

/**
 * What model to build: a name known to {@code io.dssync.models.Models}, the input shape
 * (channels, height, width; an MLP flattens it), the number of classes, and the seed of the
 * initial parameters.
 */
public record ModelSpec(String name, int channels, int height, int width, int numClasses, long seed)
    implements Serializable {
  public int featureSize() {
    return channels * height * width;
  }
}
