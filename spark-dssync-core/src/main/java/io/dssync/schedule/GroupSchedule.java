package io.dssync.schedule;

import java.util.function.IntUnaryOperator;

/**
 * Who averages with whom after global step {@code step}: a pure, seeded function, identical on
 * every worker and in every run with the same spec.
 */
public interface GroupSchedule extends SchedulePlan {
  @Override
  int workers();

  /** A schedule is its own plan: its groups do not depend on where the ranks run. */
  @Override
  default GroupSchedule forHosts(String[] hostOfRank) {
    return this;
  }

  /**
   * The groups after step {@code step}: disjoint, together covering ranks 0..N-1, each sorted
   * ascending, groups ordered by their smallest member. A returned array must not be modified.
   */
  int[][] groupsAt(long step);

  /**
   * When the groups after {@code step} are one group of all ranks to average in two levels (inside
   * racks, across racks, inside racks again; the collective's {@code averageInRacks}): its racks,
   * each sorted, all of one size, together every rank. Null, the default, when every group
   * averages in one level. A returned array must not be modified.
   */
  default int[][] twoLevelRacksAt(long step) {
    return null;
  }

  /**
   * The racks over which an average of all ranks (a global step, the stage-end average) runs in two
   * levels, as {@link #twoLevelRacksAt}; null, the default, for one level over all ranks.
   */
  default int[][] racksForGlobalAverage() {
    return null;
  }

  /**
   * The rack of each rank when the schedule groups by racks ({@code topology}), else null: the
   * trainer then takes the racks from {@code --racks} or one per host. A returned array must not be
   * modified.
   */
  default int[] rackOfRank() {
    return null;
  }

  /**
   * Whether the members of {@code group} sit in more than one rack, {@code rackOf} giving each
   * rank's rack: the groups that average in halves under {@code --cross-rack-precision fp16}, one
   * rule for the trainer and for the planner that prices them.
   */
  static boolean spansRacks(int[] group, IntUnaryOperator rackOf) {
    for (int member : group) {
      if (rackOf.applyAsInt(member) != rackOf.applyAsInt(group[0])) {
        return true;
      }
    }
    return false;
  }

  /** The group (sorted ranks) that {@code rank} belongs to after step {@code step}. */
  default int[] groupOf(int rank, long step) {
    for (int[] group : groupsAt(step)) {
      for (int member : group) {
        if (member == rank) {
          return group;
        }
      }
    }
    throw new IllegalArgumentException("rank " + rank + " is not in 0.." + (workers() - 1));
  }
}
