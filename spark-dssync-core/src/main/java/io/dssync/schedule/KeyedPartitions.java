package io.dssync.schedule;

/**
 * Base of schedules whose groups stay the same for a run of steps with the same key (a reshuffle
 * number, for example): it computes the partition once per key and answers {@code groupsAt} and
 * {@code groupOf} from it. {@code groupsAt} is called every step by every rank.
 */
abstract class KeyedPartitions implements GroupSchedule {
  private static final long serialVersionUID = 1L;

  private final int workers;
  /** The last partition computed. */
  private transient volatile Partition last;

  private record Partition(long key, int[][] groups, int[] groupIndexOfRank) {}

  KeyedPartitions(int workers) {
    this.workers = workers;
  }

  /** The key of {@code step} (already checked to be >= 0): equal keys give equal groups. */
  abstract long keyOf(long step);

  /** The groups of {@code key} (first asked for at {@code step}), sorted and ordered by smallest member. */
  abstract int[][] groupsOf(long key, long step);

  @Override
  public final int workers() {
    return workers;
  }

  @Override
  public final int[][] groupsAt(long step) {
    return partitionAt(step).groups();
  }

  @Override
  public final int[] groupOf(int rank, long step) {
    Partitions.checkRank(rank, workers);
    Partition p = partitionAt(step);
    return p.groups()[p.groupIndexOfRank()[rank]];
  }

  private Partition partitionAt(long step) {
    long key = keyOf(Schedules.checkStep(step));
    Partition p = last;
    if (p == null || p.key() != key) {
      // Racing threads may both compute it; the result is the same, so either write is fine.
      int[][] groups = groupsOf(key, step);
      p = new Partition(key, groups, Partitions.groupIndexOfRank(groups, workers));
      last = p;
    }
    return p;
  }
}
