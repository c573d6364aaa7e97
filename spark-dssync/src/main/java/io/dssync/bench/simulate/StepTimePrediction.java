package io.dssync.bench.simulate;

import io.dssync.schedule.AutoPlanner;
import java.util.function.IntPredicate;

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
    return meanSyncMs(model, schedule, workers, bytes, seed, stepsPerStage, window(schedule, stepsPerStage));
  }

  /** Steps a prediction averages over: the schedule's period, and with stages a whole number of them. */
  static int window(SimulatedSchedule schedule, int stepsPerStage) {
    int steps = schedule.period(STEPS);
    return stepsPerStage > 0 ? lcm(steps, stepsPerStage) : steps;
  }

  /**
   * The mean over a run of {@code steps} steps in stages of S (0: every step averages), whose last
   * stage ends with its last step: for a measured run, its own steps, so a random schedule's
   * prediction meets the very groups the run met (a 48-step window of random pairs on 2 racks of 2
   * crossed them on 32 of its 42 averaging steps, the 62 steps of a run on 39 of 54).
   */
  static double meanSyncMs(CostModel model, SimulatedSchedule schedule, int workers, long bytes, long seed,
      int stepsPerStage, int steps) {
    IntPredicate averages = t -> stepsPerStage <= 0 || ((t + 1) % stepsPerStage != 0 && t != steps - 1);
    return AutoPlanner.syncSumMs(schedule.create(workers, seed),
        (g, share) -> model.syncMs(g, workers, Math.round(bytes * share)), steps, averages) / steps;
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
