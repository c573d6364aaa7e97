package io.dssync.schedule;

import io.dssync.errors.Errors;

/**
 * Adds a global average every H steps to another schedule: after step t with (t + 1) % H == 0
 * all N workers form one group; at every other step the wrapped schedule decides.
 */
final class WithGlobalAverage implements GroupSchedule {
  private static final long serialVersionUID = 1L;

  private final GroupSchedule inner;
  private final int period;
  private final int[][] everyone;

  public WithGlobalAverage(GroupSchedule inner, int period) {
    if (period < 1) {
      throw Errors.invalidFlag(
          "globalAveragePeriod", period, "a global average needs a period of at least 1 step",
          "Use H > 0, or do not wrap the schedule when no global average is wanted.");
    }
    this.inner = inner;
    this.period = period;
    this.everyone = new int[][] {Partitions.allRanks(inner.workers())};
  }

  /** True if all workers average together after step {@code step}. */
  public boolean isGlobalStep(long step) {
    return (Schedules.checkStep(step) + 1) % period == 0;
  }

  @Override
  public int workers() {
    return inner.workers();
  }

  @Override
  public int[][] groupsAt(long step) {
    return isGlobalStep(step) ? everyone : inner.groupsAt(step);
  }

  @Override
  public int[][] twoLevelRacksAt(long step) {
    return isGlobalStep(step) ? inner.racksForGlobalAverage() : inner.twoLevelRacksAt(step);
  }

  @Override
  public int[] rackOfRank() {
    return inner.rackOfRank();
  }

  @Override
  public int[][] racksForGlobalAverage() {
    return inner.racksForGlobalAverage();
  }

  @Override
  public int[] groupOf(int rank, long step) {
    if (isGlobalStep(step)) {
      Partitions.checkRank(rank, workers());
      return everyone[0];
    }
    return inner.groupOf(rank, step);
  }
}
