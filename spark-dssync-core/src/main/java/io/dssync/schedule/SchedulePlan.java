package io.dssync.schedule;

import java.io.Serializable;

/**
 * What the driver ships with a stage: the schedule itself, or (for {@code topology}) the recipe
 * that becomes one once the host of every rank is known, which is only when the barrier tasks run.
 * Every rank sees the same hosts, so every rank computes the same groups.
 */
public interface SchedulePlan extends Serializable {
  int workers();

  /** The schedule of a stage whose rank r runs on executor host {@code hostOfRank[r]}. */
  GroupSchedule forHosts(String[] hostOfRank);
}
