package io.dssync.data;

import java.io.Serializable;

/**
 * A dataset's train and test splits with the shape of one example: {@code channels x height x
 * width} floats per example, stored flat (channel-major, then row-major) in {@link LabeledArrays}.
 */
public record DatasetSplits(
    LabeledArrays train, LabeledArrays test, int channels, int height, int width, String name)
    implements Serializable {
  /** Floats per example: {@code channels * height * width}. */
  public int featureSize() {
    return channels * height * width;
  }
}
