package io.dssync.collective;

/** How a received chunk lands in the reader's array. */
public enum Landing {
  /** {@code dst = chunk}. */
  COPY,
  /** {@code dst += chunk} (FP32). */
  ADD,
  /** {@code dst = (dst + chunk) * 0.5f}: the average of a group of two ({@link FloatSums#meanOfTwoInto}). */
  MEAN_OF_TWO;

  /** Lands {@code src[srcOffset, srcOffset+length)} in {@code dst[dstOffset, dstOffset+length)}. */
  public void apply(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
    switch (this) {
      case COPY -> System.arraycopy(src, srcOffset, dst, dstOffset, length);
      case ADD -> FloatSums.addInto(src, srcOffset, dst, dstOffset, length);
      case MEAN_OF_TWO -> FloatSums.meanOfTwoInto(src, srcOffset, dst, dstOffset, length);
    }
  }
}
