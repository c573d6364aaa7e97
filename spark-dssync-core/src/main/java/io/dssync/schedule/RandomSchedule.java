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
final class RandomSchedule extends KeyedPartitions {
  private static final long serialVersionUID = 1L;
  static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

  private final int groupSize;
  private final int shufflePeriod;
  private final long seed;

  RandomSchedule(int workers, int groupSize, int shufflePeriod, long seed) {
    super(workers);
    this.groupSize = groupSize;
    this.shufflePeriod = shufflePeriod;
    this.seed = seed;
  }

  @Override
  long keyOf(long step) {
    return step / shufflePeriod;
  }

  @Override
  int[][] groupsOf(long reshuffle, long step) {
    return Partitions.cut(shuffled(Partitions.allRanks(workers()), seed ^ (reshuffle * GOLDEN_GAMMA)), groupSize);
  }

  /** A Fisher-Yates shuffle of {@code ranks} (a copy) by a generator seeded from {@code streamSeed}. */
  static int[] shuffled(int[] ranks, long streamSeed) {
    SplittableRandom random = new SplittableRandom(mix64(streamSeed));
    int[] order = ranks.clone();
    for (int i = order.length - 1; i > 0; i--) {
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
