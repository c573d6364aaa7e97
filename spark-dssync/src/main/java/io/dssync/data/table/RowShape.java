package io.dssync.data.table;

import java.io.Serializable;

/** The sizes of one example: features {@code channels x height x width} and label values. */
record RowShape(int channels, int height, int width, int labelWidth) implements Serializable {
  boolean sameFeatures(RowShape other) {
    return channels == other.channels && height == other.height && width == other.width;
  }

  String features(boolean image) {
    return image ? channels + "x" + height + "x" + width + " (channels x height x width)" : values(width);
  }

  String label() {
    return values(labelWidth);
  }

  private static String values(int n) {
    return n == 1 ? "1 value" : n + " values";
  }
}
