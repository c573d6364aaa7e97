package io.dssync.bench.simulate;

import io.dssync.schedule.AutoPlanner;
import io.dssync.schedule.GroupSchedule;

/** Mean predicted sync time per step of a schedule under a cost model, over a window of steps. */
final class StepTimePrediction {
  /** Steps averaged over: covers random reshuffles, butterfly rotations and several global averages. */
  static final int STEPS = 48;

  private StepTimePrediction() {}

  static double meanSyncMs(CostModel model, SimulatedSchedule schedule, int workers, long bytes, long seed) {
    GroupSchedule groups = schedule.create(workers, seed);
    int steps = schedule.period(STEPS);
    double total = 0;
    int[][] last = null;
    double lastMs = 0;
    for (int t = 0; t < steps; t++) {
      int[][] now = groups.groupsAt(t);
      if (now != last) { // schedules hand back the same array while the groups stay the same
        lastMs = AutoPlanner.syncMs(groups, t, (g, share) -> model.syncMs(g, workers, Math.round(bytes * share)));
        last = now;
      }
      total += lastMs;
    }
    return total / steps;
  }
}
