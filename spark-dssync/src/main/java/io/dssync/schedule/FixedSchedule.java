package io.dssync.schedule;

/** One group of all N workers at every step: synchronous all-reduce. */
final class FullSchedule implements GroupSchedule {
  private static final long serialVersionUID = 1L;

  private final int[][] groups;

  FullSchedule(int workers) {
    this.groups = new int[][] {Partitions.allRanks(workers)};
  }

  @Override
  public int workers() {
    return groups[0].length;
  }

  @Override
  public int[][] groupsAt(long step) {
    Schedules.checkStep(step);
    return groups;
  }

  @Override
  public int[] groupOf(int rank, long step) {
    Partitions.checkRank(rank, workers());
    return groupsAt(step)[0];
  }
}
