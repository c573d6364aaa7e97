package io.dssync.ml;

import io.dssync.errors.Errors;

/** The model's input shape C x H x W, from explicit params or derived from the feature size. */
record InputShape(int channels, int height, int width) {

  /**
   * Explicit values (all three > 0) must multiply to {@code featureSize}; zeros are derived: C = 1,
   * H = W = sqrt(featureSize) when that is a whole number (28 x 28 images), else H = featureSize,
   * W = 1 (a flat vector: use the "mlp" model).
   */
  static InputShape derive(int featureSize, int c, int h, int w) {
    if (c == 0 && h == 0 && w == 0) {
      int side = (int) Math.round(Math.sqrt(featureSize));
      return side * side == featureSize ? new InputShape(1, side, side) : new InputShape(1, featureSize, 1);
    }
    int channels = c == 0 ? 1 : c;
    if (h == 0 || w == 0 || (long) channels * h * w != featureSize) {
      throw Errors.invalidSetting("inputChannels x inputHeight x inputWidth",
          c + " x " + h + " x " + w, "must multiply to the feature size " + featureSize
              + " (0 = derive; set height and width together)",
          "Set inputHeight and inputWidth (and inputChannels) to the image shape, or all to 0.");
    }
    return new InputShape(channels, h, w);
  }
}
