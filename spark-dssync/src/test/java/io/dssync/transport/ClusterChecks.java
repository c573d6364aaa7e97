package io.dssync.transport;

import java.io.Serializable;
import java.util.SplittableRandom;

/** Helpers shared by the transport tests: data patterns and what each rank reports. */
final class ClusterChecks {
  private ClusterChecks() {}

  /**
   * Deterministic float bits for (sender, step): random bit patterns including negative zero,
   * subnormals and extremes, with NaN and infinity folded into finite values so that every
   * comparison is on raw bits.
   */
  static float[] pattern(int sender, long step, int length) {
    SplittableRandom random = new SplittableRandom(sender * 1_000_003L + step);
    float[] out = new float[length];
    for (int i = 0; i < length; i++) {
      int bits = random.nextInt();
      if ((bits & 0x7f80_0000) == 0x7f80_0000) {
        bits &= ~0x4000_0000; // exponent all ones (NaN/Inf): clear its top bit
      }
      out[i] = Float.intBitsToFloat(bits);
    }
    return out;
  }

  static int[] othersThan(int rank, int size) {
    int[] others = new int[size - 1];
    for (int r = 0, o = 0; r < size; r++) {
      if (r != rank) {
        others[o++] = r;
      }
    }
    return others;
  }

  /** What one rank saw in an exchange test. */
  record Report(String executorId, int mismatches, long bytesReceived, long bytesSent, int openAfterClose)
      implements Serializable {}
}
