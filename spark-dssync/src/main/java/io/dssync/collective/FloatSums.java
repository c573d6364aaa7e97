package io.dssync.collective;

/** The one element-wise FP32 sum of the data plane (a plain loop: the JIT vectorizes it). */
public final class FloatSums {
  private FloatSums() {}

  /** {@code dst[dstOffset+i] += src[srcOffset+i]} for i in [0, length). */
  public static void addInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
    for (int i = 0; i < length; i++) {
      dst[dstOffset + i] += src[srcOffset + i];
    }
  }
}
