package io.dssync.data.table;

import org.apache.spark.sql.Row;

/**
 * Decodes one row of Spark's image source (BGR or BGRA bytes, row-major {@code height x width x
 * nChannels}) into channel-major floats in [0, 1]: grey stays one channel, colour becomes RGB
 * (RGBA with alpha), the channel order torchvision and PIL give, so a model trained here reads
 * images as those libraries do.
 */
final class ImagePixels {
  /** OpenCV type codes Spark's image source writes: 8-bit unsigned with 1, 3 or 4 channels. */
  private static final int CV_8UC1 = 0;
  private static final int CV_8UC3 = 16;
  private static final int CV_8UC4 = 24;
  static final String FIX = "Remove or replace such files, or read the images with option(\"dropInvalid\", true)";

  private ImagePixels() {}

  /** The struct's origin, for messages. */
  static String origin(Row image, int[] fields) {
    return image.isNullAt(fields[0]) ? "(no origin)" : image.getString(fields[0]);
  }

  /** {@code {channels, height, width}} of a valid image, else a {@link BadRow}. */
  static int[] shape(Row image, int[] fields) {
    int height = image.getInt(fields[1]);
    int width = image.getInt(fields[2]);
    int channels = image.getInt(fields[3]);
    int mode = image.getInt(fields[4]);
    if (height < 1 || width < 1 || !(mode == CV_8UC1 && channels == 1 || mode == CV_8UC3 && channels == 3
        || mode == CV_8UC4 && channels == 4)) {
      throw new BadRow("the image " + origin(image, fields) + " was not decoded (height " + height + ", width "
          + width + ", nChannels " + channels + ", mode " + mode + "; Spark marks a file it cannot decode with -1)",
          FIX);
    }
    return new int[] {channels, height, width};
  }

  /** The image's pixels, channel-major, RGB(A) order, each byte / 255. */
  static double[] decode(Row image, int[] fields) {
    int[] shape = shape(image, fields);
    int c = shape[0];
    int plane = shape[1] * shape[2];
    byte[] data = (byte[]) image.get(fields[5]);
    if (data == null || data.length != (long) plane * c) {
      throw new BadRow("the image " + origin(image, fields) + " has " + (data == null ? "no" : data.length)
          + " bytes of data, not height x width x nChannels = " + (long) plane * c, FIX);
    }
    double[] out = new double[plane * c];
    for (int ch = 0; ch < c; ch++) {
      int from = sourceChannel(ch, c);
      for (int p = 0; p < plane; p++) {
        out[ch * plane + p] = (data[p * c + from] & 0xFF) / 255.0;
      }
    }
    return out;
  }

  /** Which byte of a BGR(A) pixel holds output channel {@code ch} of RGB(A). */
  private static int sourceChannel(int ch, int channels) {
    return channels == 1 || ch == 3 ? ch : 2 - ch;
  }
}
