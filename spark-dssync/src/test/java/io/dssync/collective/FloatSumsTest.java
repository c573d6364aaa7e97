package io.dssync.collective;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The data plane's sums: both implementations, and which one a JVM gets. */
class FloatSumsTest {
  private static final Sums[] BOTH = {new PlainSums(), new VectorSums()};

  @Test
  void theSumsRunThroughTheVectorApiWhenTheJvmResolvedItsModule() {
    // The test JVM runs with Spark's module flags (--add-modules=jdk.incubator.vector), as executors do.
    assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(), "the test JVM lacks the module");
    assertTrue(FloatSums.vectorApi(), "the Vector API is resolved, yet the sums run as plain loops");
  }

  @Test
  void dividingByAPowerOfTwoMultipliesAndGivesTheBitsOfADivision() {
    Random random = new Random(5);
    float[] sums = new float[100_000];
    for (int i = 0; i < sums.length; i++) {
      // Every exponent, subnormals included: the multiply by 1/g must round exactly like the divide.
      sums[i] = Float.intBitsToFloat(random.nextInt() & 0x7f7f_ffff | (random.nextBoolean() ? 0x8000_0000 : 0));
    }
    sums[0] = Float.MIN_VALUE;
    sums[1] = -Float.MIN_NORMAL;
    sums[2] = 3 * Float.MIN_VALUE;
    for (Sums s : BOTH) {
      for (int g : new int[] {2, 3, 4, 5, 8, 64, 1024}) {
        float[] scaled = new float[sums.length + 3];
        s.divideInto(sums, 0, scaled, 3, sums.length, g);
        for (int i = 0; i < sums.length; i++) {
          if (Float.floatToRawIntBits(scaled[3 + i]) != Float.floatToRawIntBits(sums[i] / g)) {
            throw new AssertionError(s.getClass().getSimpleName() + ", g=" + g + ": " + sums[i] + " became "
                + scaled[3 + i] + ", divided " + sums[i] / g);
          }
        }
      }
    }
  }

  @Test
  void vectorAndPlainSumsGiveTheSameBitsAtEveryOffsetAndLength() {
    Random random = new Random(17);
    for (int trial = 0; trial < 400; trial++) {
      int length = trial < 100 ? trial : random.nextInt(5_000);
      int srcOffset = random.nextInt(9);
      int dstOffset = random.nextInt(9);
      float[] src = randomFloats(random, srcOffset + length + random.nextInt(3));
      float[] start = randomFloats(random, dstOffset + length + random.nextInt(3));
      int g = 1 + random.nextInt(9);
      for (int op = 0; op < 3; op++) {
        float[] plain = start.clone();
        float[] vector = start.clone();
        apply(BOTH[0], op, src, srcOffset, plain, dstOffset, length, g);
        apply(BOTH[1], op, src, srcOffset, vector, dstOffset, length, g);
        for (int i = 0; i < plain.length; i++) {
          if (Float.floatToRawIntBits(plain[i]) != Float.floatToRawIntBits(vector[i])) {
            throw new AssertionError("op " + op + ", length " + length + ", offsets " + srcOffset + "/" + dstOffset
                + ", g=" + g + ": index " + i + " plain " + plain[i] + ", vector " + vector[i]);
          }
        }
      }
    }
  }

  @Test
  void aSumsThatComputesOtherFloatsIsNotTaken() {
    PlainSums plain = new PlainSums();
    Sums wrong = new Sums() {
      @Override
      public void addInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
        plain.addInto(src, srcOffset, dst, dstOffset, length);
      }

      @Override
      public void meanOfTwoInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length) {
        plain.addInto(src, srcOffset, dst, dstOffset, length); // forgets the halving
      }

      @Override
      public void divideInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length, int g) {
        plain.divideInto(src, srcOffset, dst, dstOffset, length, g);
      }
    };
    assertFalse(Sums.agree(wrong, new PlainSums()));
    assertTrue(Sums.agree(new VectorSums(), new PlainSums()));
  }

  private static void apply(Sums s, int op, float[] src, int srcOffset, float[] dst, int dstOffset, int length, int g) {
    switch (op) {
      case 0 -> s.addInto(src, srcOffset, dst, dstOffset, length);
      case 1 -> s.meanOfTwoInto(src, srcOffset, dst, dstOffset, length);
      default -> s.divideInto(src, srcOffset, dst, dstOffset, length, g);
    }
  }

  /** Finite floats of every exponent and sign, subnormals included (no NaN: its payload is not a sum's). */
  private static float[] randomFloats(Random random, int n) {
    float[] out = new float[n];
    for (int i = 0; i < n; i++) {
      out[i] = Float.intBitsToFloat(random.nextInt() & 0x7f7f_ffff | (random.nextBoolean() ? 0x8000_0000 : 0));
    }
    return out;
  }
}
