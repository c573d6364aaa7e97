package io.dssync.collective;

/** The element-wise FP32 sums of the data plane (plain loops: the JIT vectorizes them). */
public final class FloatSums {
  private FloatSums() {}

  /** {@code dst[dstOffset+i] += src[srcOffset+i]} for i in [0, length). */
  public static void addInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
    for (int i = 0; i < length; i++) {
      dst[dstOffset + i] += src[srcOffset + i];
    }
  }

  /**
   * {@code dst[dstOffset+i] = (dst[dstOffset+i] + src[srcOffset+i]) * 0.5f}: the mean of two. The
   * same float as the group-of-two average in member order, because a + b == b + a exactly in
   * IEEE 754 and multiplying by 0.5 is exact division by 2.
   */
  public static void meanOfTwoInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
    for (int i = 0; i < length; i++) {
      dst[dstOffset + i] = (dst[dstOffset + i] + src[srcOffset + i]) * 0.5f;
    }
  }

  /**
   * {@code vector[offset+x] = sum[x] / g}. For g a power of two, x * (1/g) is the same real number
   * as x / g (1/g is exact), so both round to the same float; the multiply is several times faster.
   */
  static void scaleInto(float[] sum, float[] vector, int offset, int length, int g) {
    scaleInto(sum, 0, vector, offset, length, g);
  }

  /** {@code dst[dstOffset+x] = src[srcOffset+x] / g} (in place when both are the same range). */
  static void scaleInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length, int g) {
    if (Integer.bitCount(g) == 1) {
      float inverse = 1f / g;
      for (int x = 0; x < length; x++) {
        dst[dstOffset + x] = src[srcOffset + x] * inverse;
      }
    } else {
      for (int x = 0; x < length; x++) {
        dst[dstOffset + x] = src[srcOffset + x] / g;
      }
    }
  }
}
