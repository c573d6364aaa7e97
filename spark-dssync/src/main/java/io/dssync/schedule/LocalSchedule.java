package io.dssync.schedule;

/** Groups of one at every step: no averaging (local SGD when combined with a global average). */
final class LocalSchedule implements GroupSchedule {
  private static final long serialVersionUID = 1L;

  private final int[][] groups;

  LocalSchedule(int workers) {
    groups = new int[workers][];
    for (int rank = 0; rank < workers; rank++) {
      groups[rank] = new int[] {rank};
    }
  }

  @Override
  public int workers() {
    return groups.length;
  }

  @Override
  public int[][] groupsAt(long step) {
    Schedules.checkStep(step);
    return groups;
  }

  @Override
  public int[] groupOf(int rank, long step) {
    Partitions.checkRank(rank, workers());
    return groupsAt(step)[rank];
  }
}
