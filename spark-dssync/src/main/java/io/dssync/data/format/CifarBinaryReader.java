package io.dssync.data.format;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DataErrors;

/**
 * Parses the CIFAR-10 binary format: back-to-back records of 1 label byte followed by 3072 pixel
 * bytes (the 1024 red, then 1024 green, then 1024 blue values of a 32x32 image, each row-major).
 * That is already channels x height x width, so pixels are copied in order and scaled to [0, 1].
 */
public final class CifarBinaryReader {
  public static final int CHANNELS = 3;
  public static final int SIDE = 32;
  public static final int PIXELS = CHANNELS * SIDE * SIDE;
  public static final int RECORD_BYTES = 1 + PIXELS;

  private CifarBinaryReader() {}

  /** The records of one batch file; {@code fileName} names the file in errors. */
  public static LabeledArrays parse(byte[] content, String fileName, int classes) {
    if (content.length == 0 || content.length % RECORD_BYTES != 0) {
      throw DataErrors.datasetCorrupt("CIFAR binary", fileName, "it holds " + content.length
          + " bytes, not a positive multiple of the " + RECORD_BYTES + "-byte record"
          + " (1 label byte + 3072 pixel bytes)");
    }
    int count = content.length / RECORD_BYTES;
    float[] features = new float[count * PIXELS];
    int[] labels = new int[count];
    for (int r = 0; r < count; r++) {
      int base = r * RECORD_BYTES;
      labels[r] = content[base] & 0xff;
      if (labels[r] >= classes) {
        throw DataErrors.datasetCorrupt("CIFAR binary", fileName, "record " + r + " has label "
            + labels[r] + ", outside 0.." + (classes - 1));
      }
      for (int p = 0; p < PIXELS; p++) {
        features[r * PIXELS + p] = (content[base + 1 + p] & 0xff) / 255f;
      }
    }
    return new LabeledArrays(features, labels, PIXELS, classes);
  }
}
