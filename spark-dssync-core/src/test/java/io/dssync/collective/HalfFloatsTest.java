package io.dssync.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** IEEE halves: exact decoding, rounding to the nearest half (ties to even), packing two per float. */
class HalfFloatsTest {
  /** A finite half's value, from the definition (sign, 5-bit exponent with bias 15, 10-bit mantissa). */
  private static double valueOf(int h) {
    int exponent = (h >>> 10) & 0x1F;
    int mantissa = h & 0x3FF;
    double magnitude = exponent == 0 ? mantissa * Math.pow(2, -24)
        : (1 + mantissa / 1024.0) * Math.pow(2, exponent - 15);
    return (h & 0x8000) != 0 ? -magnitude : magnitude;
  }

  @Test
  void everyFiniteHalfDecodesToItsValueAndEncodesBackToItself() {
    for (int h = 0; h < 1 << 16; h++) {
      if (((h >>> 10) & 0x1F) == 0x1F) {
        continue; // infinities and NaNs are never sent
      }
      float f = HalfFloats.decode(h);
      assertEquals(valueOf(h), f, 0.0, "half " + Integer.toHexString(h));
      assertEquals(h, HalfFloats.encode(f), "half " + Integer.toHexString(h));
    }
  }

  @Test
  void aValueHalfwayBetweenTwoHalvesRoundsToTheEvenOne() {
    // Between two neighbouring positive halves (subnormal and normal, up to the largest), the
    // midpoint has 12 significant bits at most, so it is a float exactly.
    for (int h = 0; h < 0x7BFF; h++) {
      float mid = (float) ((valueOf(h) + valueOf(h + 1)) / 2);
      assertEquals((valueOf(h) + valueOf(h + 1)) / 2, mid, 0.0);
      int even = (h & 1) == 0 ? h : h + 1;
      assertEquals(even, HalfFloats.encode(mid), "midpoint above half " + Integer.toHexString(h));
      assertEquals(even | 0x8000, HalfFloats.encode(-mid), "negative midpoint above half " + Integer.toHexString(h));
      assertEquals(h, HalfFloats.encode(Math.nextDown(mid)), "just below the midpoint above " + Integer.toHexString(h));
      assertEquals(h + 1, HalfFloats.encode(Math.nextUp(mid)),
          "just above the midpoint above " + Integer.toHexString(h));
    }
  }

  @Test
  void randomFloatsRoundToTheNearestHalf() {
    Random random = new Random(11);
    for (int t = 0; t < 1_000_000; t++) {
      // Every exponent from far below the smallest subnormal half to beyond the largest half.
      float f = (float) (random.nextGaussian() * Math.pow(2, random.nextInt(48) - 32));
      int h = HalfFloats.encode(f);
      if (Math.abs(f) >= 65520f) {
        assertEquals(HalfFloats.OVERFLOW, h, "value " + f);
        continue;
      }
      double error = Math.abs(f - valueOf(h));
      int magnitude = h & 0x7FFF;
      double down = magnitude == 0 ? Double.POSITIVE_INFINITY : Math.abs(Math.abs(f) - valueOf(magnitude - 1));
      double up = magnitude == 0x7BFF ? Double.POSITIVE_INFINITY : Math.abs(Math.abs(f) - valueOf(magnitude + 1));
      assertTrue(error <= down && error <= up, "value " + f + " -> half " + Integer.toHexString(h));
      assertEquals(f < 0 || (f == 0 && 1 / f < 0), (h & 0x8000) != 0, "sign of " + f);
    }
  }

  @Test
  void valuesBeyondTheLargestHalfAndNaNAreReportedNotSent() {
    assertEquals(0x7BFF, HalfFloats.encode(65504f));
    assertEquals(0x7BFF, HalfFloats.encode(Math.nextDown(65520f)));
    assertEquals(HalfFloats.OVERFLOW, HalfFloats.encode(65520f)); // the tie rounds to even: infinity
    assertEquals(HalfFloats.OVERFLOW, HalfFloats.encode(-1e6f));
    assertEquals(HalfFloats.OVERFLOW, HalfFloats.encode(Float.POSITIVE_INFINITY));
    assertEquals(HalfFloats.OVERFLOW, HalfFloats.encode(Float.NaN));
    float[] values = {1f, 2f, 3f, 70_000f, 5f};
    assertEquals(3, HalfFloats.pack(values, null, 0, values.length, new float[3]), "the first value no half holds");
    float[] reference = {0f, 0f, 0f, 69_000f, 0f};
    assertEquals(-1, HalfFloats.pack(values, reference, 0, values.length, new float[3]), "its change fits");
  }

  @Test
  void packedHalvesAreFiniteFloatsAndUnpackInOrder() {
    Random random = new Random(3);
    int n = 10_001; // odd: the last float carries one half
    float[] values = new float[n + 4];
    float[] reference = new float[n + 4];
    for (int i = 0; i < values.length; i++) {
      values[i] = (float) (random.nextGaussian() * 100);
      reference[i] = (float) random.nextGaussian();
    }
    float[] packed = new float[HalfFloats.packedLength(n)];
    assertEquals(5001, packed.length);
    assertEquals(-1, HalfFloats.pack(values, reference, 2, n, packed));
    for (float p : packed) {
      assertTrue(Float.isFinite(p), "a packed float must be finite, so every transport copies its bits");
    }
    float[] out = new float[n + 4];
    HalfFloats.unpackOnto(packed, reference, out, 2, n);
    float[] sum = new float[n];
    HalfFloats.unpackInto(packed, sum, n, true);
    HalfFloats.unpackInto(packed, sum, n, false);
    for (int i = 0; i < n; i++) {
      float change = HalfFloats.decode(HalfFloats.encode(values[2 + i] - reference[2 + i]));
      assertEquals(reference[2 + i] + change, out[2 + i], 0.0, "value " + i);
      assertEquals(2 * change, sum[i], 0.0, "value " + i);
    }
    assertEquals(0f, out[0], 0.0, "nothing outside the range is written");
    assertEquals(0f, out[n + 2], 0.0, "nothing outside the range is written");
  }
}
