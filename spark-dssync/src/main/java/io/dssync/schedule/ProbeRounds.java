package io.dssync.schedule;

/**
 * The pairing of the link probe: a round-robin tournament (circle method) in which every pair of
 * ranks meets exactly once over N - 1 rounds (N rounds when N is odd, each rank resting once).
 * Pairs of one round exchange at the same time, so the planner knows which measurements shared
 * an uplink.
 */
public final class ProbeRounds {
  private ProbeRounds() {}

  /** Rounds needed for {@code n} ranks. */
  public static int rounds(int n) {
    return n <= 1 ? 0 : (n % 2 == 0 ? n - 1 : n);
  }

  /** The partner of {@code rank} in {@code round}, or -1 when it rests that round. */
  public static int partner(int rank, int round, int n) {
    int m = n % 2 == 0 ? n : n + 1; // odd n: a phantom rank m - 1 = n, whose partner rests
    int last = m - 1;
    int p;
    if (rank == last) {
      p = round % last;
    } else {
      p = Math.floorMod(2 * round - rank, last);
      if (p == rank) {
        p = last;
      }
    }
    return p >= n ? -1 : p;
  }
}
