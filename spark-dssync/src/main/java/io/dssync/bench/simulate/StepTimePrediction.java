package io.dssync.bench.simulate;

import io.dssync.schedule.AutoPlanner;

/** Mean predicted sync time per step of a schedule under a cost model, over a window of steps. */
final class StepTimePrediction {
  /** Steps averaged over: covers random reshuffles, butterfly rotations and several global averages. */
  static final int STEPS = 48;

  private StepTimePrediction() {}

  /**
   * With {@code stepsPerStage} S > 0 the last step of every stage of S steps costs nothing, as in
   * the worker loop: the stage-end average of all ranks (outside the step times) stands in for it.
   * The window is then a whole number of stages as well as of the schedule's period.
   */
  static double meanSyncMs(CostModel model, SimulatedSchedule schedule, int workers, long bytes, long seed,
      int stepsPerStage) {
    int steps = schedule.period(STEPS);
    if (stepsPerStage > 0) {
      steps = lcm(steps, stepsPerStage);
    }
    return AutoPlanner.meanSyncMs(schedule.create(workers, seed),
        (g, share) -> model.syncMs(g, workers, Math.round(bytes * share)), Math.max(0, stepsPerStage), steps);
  }

  private static int lcm(int a, int b) {
    int x = a;
    int y = b;
    while (y != 0) {
      int r = x % y;
      x = y;
      y = r;
    }
    return a / x * b;
  }
}
