package io.dssync.schedule;

/**
 * Digit rotation for N = g^m. Write each rank in base g with m digits; at step t the ranks that
 * agree on every digit except digit d = t mod m form a group of g. Averaging in these groups for
 * any m consecutive steps averages along every digit once, which yields the exact global average.
 */
final class ButterflySchedule implements GroupSchedule {
  private static final long serialVersionUID = 1L;

  private final int workers;
  /** partitions[d]: the groups that differ only in digit d; there are just m of them. */
  private final int[][][] partitions;
  /** groupIndexOfRank[d][rank]: where rank's group sits in partitions[d]. */
  private final int[][] groupIndexOfRank;

  ButterflySchedule(int workers, int groupSize) {
    int m = digits(workers, groupSize);
    if (m < 0) {
      throw new IllegalArgumentException("N=" + workers + " is not a power of g=" + groupSize);
    }
    this.workers = workers;
    if (m == 0) { // N = 1: one group of the only rank
      partitions = new int[][][] {{{0}}};
      groupIndexOfRank = new int[][] {{0}};
      return;
    }
    partitions = new int[m][][];
    int stride = 1;
    for (int d = 0; d < m; d++, stride *= groupSize) {
      partitions[d] = groupsVaryingDigit(workers, groupSize, stride);
    }
    groupIndexOfRank = new int[m][];
    for (int d = 0; d < m; d++) {
      groupIndexOfRank[d] = Partitions.groupIndexOfRank(partitions[d], workers);
    }
  }

  /** m with g^m = n, or -1 when n is not a power of g (n = 1 gives 0 for any g). */
  static int digits(int n, int g) {
    long p = 1;
    int m = 0;
    while (p < n && g >= 2) {
      p *= g;
      m++;
    }
    return p == n ? m : -1;
  }

  private static int[][] groupsVaryingDigit(int n, int g, int stride) {
    int[][] groups = new int[n / g][];
    int k = 0;
    // Ranks whose digit d is 0 start a group, visited ascending: groups come out ordered.
    for (int rank = 0; rank < n; rank++) {
      if ((rank / stride) % g == 0) {
        int[] group = new int[g];
        for (int i = 0; i < g; i++) {
          group[i] = rank + i * stride;
        }
        groups[k++] = group;
      }
    }
    return groups;
  }

  @Override
  public int workers() {
    return workers;
  }

  @Override
  public int[][] groupsAt(long step) {
    return partitions[digitAt(step)];
  }

  @Override
  public int[] groupOf(int rank, long step) {
    Partitions.checkRank(rank, workers);
    int d = digitAt(step);
    return partitions[d][groupIndexOfRank[d][rank]];
  }

  private int digitAt(long step) {
    return (int) (Schedules.checkStep(step) % partitions.length);
  }
}
