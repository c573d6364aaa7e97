package io.dssync.data;

import java.io.Serializable;

/**
 * A dataset's train and test splits with the shape of one example: {@code channels x height x
 * width} floats per example, stored flat (channel-major, then row-major) in {@link LabeledArrays}.
 *
 * <p>{@code vocabSize} is 0 for dense inputs (pixels). For inputs of ids (token ids of text,
 * hashed feature ids of click logs) it is the number of distinct ids: every feature value is an
 * integer in {@code 0..vocabSize-1} stored as a float (exact below 2^24).
 */
public record DatasetSplits(
    LabeledArrays train, LabeledArrays test, int channels, int height, int width, String name,
    int vocabSize) implements Serializable {
  /** Dense (pixel) inputs. */
  public DatasetSplits(LabeledArrays train, LabeledArrays test, int channels, int height, int width,
      String name) {
    this(train, test, channels, height, width, name, 0);
  }

  /** Floats per example: {@code channels * height * width}. */
  public int featureSize() {
    return channels * height * width;
  }
}
