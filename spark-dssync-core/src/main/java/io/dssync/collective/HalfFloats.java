package io.dssync.collective;

/**
 * IEEE 754 binary16 ("half") numbers for the averages across racks that {@link CrossRackPrecision#FP16}
 * asks for: each value is rounded to the nearest half (ties to even), and two halves travel packed
 * in one float's bits, so a transport that moves floats moves half the bytes.
 *
 * <p>The packed float's upper 16 bits are a finite half, so the float is never NaN or infinite:
 * every transport copies its bits unchanged. Callers never pack a half that is infinite or NaN
 * ({@link #encode} reports those as {@link #OVERFLOW}).
 */
final class HalfFloats {
  /** What {@link #encode} returns for a value that rounds beyond the largest half (65504), or NaN. */
  static final int OVERFLOW = -1;

  /** Every half's float value, indexed by its 16 bits (decoding is exact). */
  private static final float[] DECODED = new float[1 << 16];

  static {
    for (int h = 0; h < DECODED.length; h++) {
      DECODED[h] = decodeSlow(h);
    }
  }

  private HalfFloats() {}

  /** Floats that carry {@code values} halves. */
  static int packedLength(int values) {
    return (values + 1) >>> 1;
  }

  /**
   * The bits of the half nearest to {@code f} (ties to even), or {@link #OVERFLOW} when that is
   * infinite or {@code f} is NaN.
   */
  static int encode(float f) {
    int bits = Float.floatToRawIntBits(f);
    int sign = (bits >>> 16) & 0x8000;
    int abs = bits & 0x7FFF_FFFF;
    if (abs >= 0x4780_0000) { // |f| >= 65536, infinite or NaN
      return OVERFLOW;
    }
    if (abs >= 0x3880_0000) { // |f| >= 2^-14: a normal half
      int rebiased = abs - (112 << 23); // exponent bias 127 -> 15, still 23 mantissa bits
      int rounded = rebiased + 0x0FFF + ((rebiased >>> 13) & 1); // to nearest even on the 13 dropped bits
      int h = rounded >>> 13;
      return h >= 0x7C00 ? OVERFLOW : sign | h;
    }
    if (abs <= 0x3300_0000) { // |f| <= 2^-25: rounds to zero (2^-25 is a tie, and 0 is even)
      return sign;
    }
    // A subnormal half m * 2^-24: m = |f| * 2^24 rounded to nearest even; m = 1024 is the smallest normal.
    int exponent = abs >>> 23; // 102..112
    int significand = (abs & 0x7F_FFFF) | 0x80_0000;
    int shift = 126 - exponent; // 14..24
    int m = significand >>> shift;
    int rest = significand & ((1 << shift) - 1);
    int halfway = 1 << (shift - 1);
    if (rest > halfway || (rest == halfway && (m & 1) == 1)) {
      m++;
    }
    return sign | m;
  }

  /** The float value of the half with bits {@code h} (exact). */
  static float decode(int h) {
    return DECODED[h & 0xFFFF];
  }

  private static float decodeSlow(int h) {
    int exponent = (h >>> 10) & 0x1F;
    int mantissa = h & 0x3FF;
    float magnitude;
    if (exponent == 0) {
      magnitude = mantissa * 0x1p-24f;
    } else if (exponent == 0x1F) {
      magnitude = mantissa == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
    } else {
      magnitude = Float.intBitsToFloat(((exponent + 112) << 23) | (mantissa << 13));
    }
    return (h & 0x8000) != 0 ? -magnitude : magnitude;
  }

  /**
   * Packs {@code values[i] - minus[i]} ({@code minus} null: {@code values[i]}) for i in
   * [offset, offset+length) into {@code packed[0, packedLength(length))}, value 2k in the lower and
   * 2k+1 in the upper half of float k. Returns -1, or the index of the first value that no finite
   * half holds.
   */
  static int pack(float[] values, float[] minus, int offset, int length, float[] packed) {
    for (int k = 0; 2 * k < length; k++) {
      int i = offset + 2 * k;
      int low = encode(minus == null ? values[i] : values[i] - minus[i]);
      if (low == OVERFLOW) {
        return i;
      }
      int high = 0;
      if (2 * k + 1 < length) {
        high = encode(minus == null ? values[i + 1] : values[i + 1] - minus[i + 1]);
        if (high == OVERFLOW) {
          return i + 1;
        }
      }
      packed[k] = Float.intBitsToFloat((high << 16) | low);
    }
    return -1;
  }

  /** {@code dst[dstOffset+i] = base[dstOffset+i] + (half i of packed)} for i in [0, length). */
  static void unpackOnto(float[] packed, float[] base, float[] dst, int dstOffset, int length) {
    for (int i = 0; i < length; i++) {
      dst[dstOffset + i] = base[dstOffset + i] + half(packed, i);
    }
  }

  /** {@code sum[i] += (half i of packed)} for i in [0, length), or {@code =} when {@code first}. */
  static void unpackInto(float[] packed, float[] sum, int length, boolean first) {
    for (int i = 0; i < length; i++) {
      sum[i] = first ? half(packed, i) : sum[i] + half(packed, i);
    }
  }

  /** Half i of {@code packed} as a float. */
  static float half(float[] packed, int i) {
    int bits = Float.floatToRawIntBits(packed[i >>> 1]);
    return decode((i & 1) == 0 ? bits : bits >>> 16);
  }
}
