package io.dssync.collective;

/**
 * The element-wise FP32 sums of the data plane. They run through the Java Vector API when the JVM
 * resolved its module ({@code --add-modules=jdk.incubator.vector}, which Spark 4.1's launcher and
 * this project's scripts pass to drivers and executors), else as plain loops. Java 17's JIT does
 * not vectorize these loops when source and target start at different offsets, as landed parts do:
 * there the Vector API sums the mean of two 2.5x faster. Both give the same floats bit for bit,
 * since every lane does the same IEEE 754 operation as the plain loop.
 */
public final class FloatSums {
  private static final Sums SUMS = Sums.fastestUsable();

  private FloatSums() {}

  /** Whether the sums run through the Vector API in this JVM (else plain loops). */
  public static boolean vectorApi() {
    return SUMS instanceof VectorSums;
  }

  /** {@code dst[dstOffset+i] += src[srcOffset+i]} for i in [0, length). */
  public static void addInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
    SUMS.addInto(src, srcOffset, dst, dstOffset, length);
  }

  /**
   * {@code dst[dstOffset+i] = (dst[dstOffset+i] + src[srcOffset+i]) * 0.5f}: the mean of two. The
   * same float as the group-of-two average in member order, because a + b == b + a exactly in
   * IEEE 754 and multiplying by 0.5 is exact division by 2.
   */
  public static void meanOfTwoInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
    SUMS.meanOfTwoInto(src, srcOffset, dst, dstOffset, length);
  }

  /**
   * {@code dst[dstOffset+i] = src[srcOffset+i] / g}. For g a power of two, x * (1/g) is the same
   * real number as x / g (1/g is exact), so both round to the same float; the multiply is several
   * times faster, so it is used there.
   */
  public static void divideInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length, int g) {
    SUMS.divideInto(src, srcOffset, dst, dstOffset, length, g);
  }
}
