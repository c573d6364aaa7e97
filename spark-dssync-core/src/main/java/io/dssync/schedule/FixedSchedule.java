package io.dssync.schedule;

/**
 * The same groups at every step: one group of all N workers (full: synchronous all-reduce), or N
 * groups of one (local: no averaging; local SGD when combined with a global average).
 */
final class FixedSchedule implements GroupSchedule {
  private static final long serialVersionUID = 1L;

  private final int[][] groups;
  /** groupIndex[rank]: which of {@code groups} holds the rank. */
  private final int[] groupIndex;

  private FixedSchedule(int[][] groups, int[] groupIndex) {
    this.groups = groups;
    this.groupIndex = groupIndex;
  }

  /** One group of all {@code workers}. */
  static FixedSchedule full(int workers) {
    return new FixedSchedule(new int[][] {Partitions.allRanks(workers)}, new int[workers]);
  }

  /** Every worker in a group of its own. */
  static FixedSchedule local(int workers) {
    int[][] groups = new int[workers][];
    int[] index = new int[workers];
    for (int rank = 0; rank < workers; rank++) {
      groups[rank] = new int[] {rank};
      index[rank] = rank;
    }
    return new FixedSchedule(groups, index);
  }

  @Override
  public int workers() {
    return groupIndex.length;
  }

  @Override
  public int[][] groupsAt(long step) {
    Schedules.checkStep(step);
    return groups;
  }

  @Override
  public int[] groupOf(int rank, long step) {
    Partitions.checkRank(rank, workers());
    return groupsAt(step)[groupIndex[rank]];
  }
}
