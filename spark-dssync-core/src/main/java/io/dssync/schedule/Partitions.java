package io.dssync.schedule;

import java.util.Arrays;

/**
 * Cuts an ordering of the ranks into groups.
 *
 * <p>Rule for N not divisible by g: there are floor(N/g) groups, and the N mod g leftover ranks
 * join the first groups, one each (going round again if there are more leftovers than groups).
 * Group k therefore has N/G + (k < N%G ? 1 : 0) ranks for G = floor(N/g) groups: sizes g or g+1
 * whenever N mod g < floor(N/g), and never a group smaller than g. For example N=7, g=3 gives
 * sizes 4 and 3; N=5, g=3 gives one group of 5.
 */
final class Partitions {
  private Partitions() {}

  static int[] allRanks(int workers) {
    int[] ranks = new int[workers];
    for (int i = 0; i < workers; i++) {
      ranks[i] = i;
    }
    return ranks;
  }

  /**
   * Cuts {@code order} (a permutation of 0..N-1) into consecutive groups by the rule above, sorts
   * each group and orders groups by their smallest member.
   */
  static int[][] cut(int[] order, int groupSize) {
    int n = order.length;
    int count = n / groupSize;
    int base = n / count;
    int extra = n % count;
    int[][] groups = new int[count][];
    int start = 0;
    for (int k = 0; k < count; k++) {
      int size = base + (k < extra ? 1 : 0);
      int[] group = Arrays.copyOfRange(order, start, start + size);
      Arrays.sort(group);
      groups[k] = group;
      start += size;
    }
    Arrays.sort(groups, (a, b) -> Integer.compare(a[0], b[0]));
    return groups;
  }

  /** For each rank, the index of its group in {@code groups}. */
  static int[] groupIndexOfRank(int[][] groups, int workers) {
    int[] index = new int[workers];
    for (int k = 0; k < groups.length; k++) {
      for (int rank : groups[k]) {
        index[rank] = k;
      }
    }
    return index;
  }

  static void checkRank(int rank, int workers) {
    if (rank < 0 || rank >= workers) {
      throw new IllegalArgumentException("rank " + rank + " is not in 0.." + (workers - 1));
    }
  }
}
