package io.dssync.data.table;

import io.dssync.errors.Errors;
import java.io.Serializable;

/**
 * How the flat features of one example are read as an image: {@code channels x height x width},
 * channel-major (all of channel 0 row by row, then channel 1, ...). For a column of Spark's image
 * source the images give the layout; a layout set there must match them.
 */
public record ImageLayout(int channels, int height, int width) implements Serializable {
  public ImageLayout {
    if (channels < 1 || height < 1 || width < 1 || (long) channels * height * width > Integer.MAX_VALUE) {
      throw Errors.invalidSetting("imageLayout", channels + "x" + height + "x" + width,
          "channels, height and width are at least 1 and hold at most " + Integer.MAX_VALUE + " values",
          "Give the layout of one example, e.g. 1x28x28 for a grey 28 by 28 image.");
    }
  }

  /** Values per example. */
  public int size() {
    return channels * height * width;
  }

  @Override
  public String toString() {
    return channels + "x" + height + "x" + width;
  }
}
