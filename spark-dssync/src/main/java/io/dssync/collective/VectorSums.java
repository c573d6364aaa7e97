package io.dssync.collective;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link FloatSums}' operations on the widest float vectors the CPU has, then the tail in plain
 * Java. Only {@code fromArray}, {@code intoArray} and lane arithmetic are used: the parts of the
 * incubating API that every JDK from 17 on keeps unchanged.
 */
final class VectorSums implements Sums {
  private static final VectorSpecies<Float> LANES = FloatVector.SPECIES_PREFERRED;
  private static final int WIDTH = LANES.length();

  @Override
  public void addInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
    int i = 0;
    for (int bound = LANES.loopBound(length); i < bound; i += WIDTH) {
      FloatVector.fromArray(LANES, dst, dstOffset + i).add(FloatVector.fromArray(LANES, src, srcOffset + i))
          .intoArray(dst, dstOffset + i);
    }
    for (; i < length; i++) {
      dst[dstOffset + i] += src[srcOffset + i];
    }
  }

  @Override
  public void meanOfTwoInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
    int i = 0;
    for (int bound = LANES.loopBound(length); i < bound; i += WIDTH) {
      FloatVector.fromArray(LANES, dst, dstOffset + i).add(FloatVector.fromArray(LANES, src, srcOffset + i))
          .mul(0.5f).intoArray(dst, dstOffset + i);
    }
    for (; i < length; i++) {
      dst[dstOffset + i] = (dst[dstOffset + i] + src[srcOffset + i]) * 0.5f;
    }
  }

  @Override
  public void divideInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length, int g) {
    boolean powerOfTwo = Integer.bitCount(g) == 1;
    float inverse = 1f / g;
    float divisor = g;
    int i = 0;
    for (int bound = LANES.loopBound(length); i < bound; i += WIDTH) {
      FloatVector x = FloatVector.fromArray(LANES, src, srcOffset + i);
      (powerOfTwo ? x.mul(inverse) : x.div(divisor)).intoArray(dst, dstOffset + i);
    }
    for (; i < length; i++) {
      dst[dstOffset + i] = powerOfTwo ? src[srcOffset + i] * inverse : src[srcOffset + i] / g;
    }
  }
}
