package io.dssync.collective;

/** {@link FloatSums}' operations as plain loops: what any JVM can run. */
final class PlainSums implements Sums {
  @Override
  public void addInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
    for (int i = 0; i < length; i++) {
      dst[dstOffset + i] += src[srcOffset + i];
    }
  }

  @Override
  public void meanOfTwoInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
    for (int i = 0; i < length; i++) {
      dst[dstOffset + i] = (dst[dstOffset + i] + src[srcOffset + i]) * 0.5f;
    }
  }

  @Override
  public void divideInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length, int g) {
    if (Integer.bitCount(g) == 1) {
      float inverse = 1f / g;
      for (int i = 0; i < length; i++) {
        dst[dstOffset + i] = src[srcOffset + i] * inverse;
      }
    } else {
      for (int i = 0; i < length; i++) {
        dst[dstOffset + i] = src[srcOffset + i] / g;
      }
    }
  }
}
