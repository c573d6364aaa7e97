package io.dssync.schedule;

import java.util.SplittableRandom;

/**
 * A fresh seeded random partition every P steps. Reshuffle r = step / P draws a permutation of
 * 0..N-1 from a {@link SplittableRandom} whose seed mixes (seed, r), and cuts it into groups by
 * the {@link Partitions} rule (floor(N/g) groups; leftover ranks join the first groups, one each).
 *
 * <p>The result depends only on (N, g, P, seed, step): no shared generator state, no hash-order
 * iteration, so every JVM computes the same groups.
 */
final class RandomSchedule implements GroupSchedule {
  private static final long serialVersionUID = 1L;
  private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

  private final int workers;
  private final int groupSize;
  private final int shufflePeriod;
  private final long seed;

  /** The last partition computed: groupsAt is called every step by every rank. */
  private transient volatile Partition last;

  private record Partition(long reshuffle, int[][] groups, int[] groupIndexOfRank) {}

  RandomSchedule(int workers, int groupSize, int shufflePeriod, long seed) {
    this.workers = workers;
    this.groupSize = groupSize;
    this.shufflePeriod = shufflePeriod;
    this.seed = seed;
  }

  @Override
  public int workers() {
    return workers;
  }

  @Override
  public int[][] groupsAt(long step) {
    return partitionAt(step).groups();
  }

  @Override
  public int[] groupOf(int rank, long step) {
    Partitions.checkRank(rank, workers);
    Partition p = partitionAt(step);
    return p.groups()[p.groupIndexOfRank()[rank]];
  }

  private Partition partitionAt(long step) {
    long reshuffle = Schedules.checkStep(step) / shufflePeriod;
    Partition p = last;
    if (p == null || p.reshuffle() != reshuffle) {
      // Racing threads may both compute it; the result is the same, so either write is fine.
      int[][] groups = Partitions.cut(permutation(reshuffle), groupSize);
      p = new Partition(reshuffle, groups, Partitions.groupIndexOfRank(groups, workers));
      last = p;
    }
    return p;
  }

  private int[] permutation(long reshuffle) {
    SplittableRandom random = new SplittableRandom(mix64(seed ^ (reshuffle * GOLDEN_GAMMA)));
    int[] order = Partitions.allRanks(workers);
    for (int i = workers - 1; i > 0; i--) { // Fisher-Yates
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    return order;
  }

  /** SplitMix64's finalizer: nearby (seed, r) pairs give unrelated generator seeds. */
  static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
