package io.dssync.data.table;

import java.io.Serializable;

/**
 * The shape of one example of a loaded table: features {@code channels x height x width} (flat
 * features are {@code 1 x 1 x d}), {@code labelWidth} values of label (1 for a scalar label), and
 * whether the features are integer token ids ({@code idsInput}).
 */
public record TableShape(int channels, int height, int width, int labelWidth, boolean idsInput)
    implements Serializable {
  public int featureSize() {
    return channels * height * width;
  }

  String features() {
    return channels + "x" + height + "x" + width;
  }
}
