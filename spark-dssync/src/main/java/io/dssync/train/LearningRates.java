package io.dssync.train;

/**
 * The learning rates of one fit: the configured schedule; from the SWA start on, the SWA rate when one is set; and
 * from a {@link StageCallback}'s request on, the one rate it set, for every following step.
 */
final class LearningRates {
  private final LearningRateSchedule schedule;
  private final long swaStart;
  private final double swaRate;
  private double set;

  /** {@code swaStart} &lt; 0 or {@code swaRate} 0: no SWA rate; {@code set} NaN: no callback's rate. */
  LearningRates(LearningRateSchedule schedule, long swaStart, double swaRate, double set) {
    this.schedule = schedule;
    this.swaStart = swaStart;
    this.swaRate = swaRate;
    this.set = set;
  }

  /** What the workers of the stage starting at {@code firstStep} follow. */
  LearningRateSchedule forStage(long firstStep) {
    if (!Double.isNaN(set)) {
      return LearningRateSchedule.constant(set, schedule.totalSteps());
    }
    if (swaRate > 0 && swaStart >= 0 && firstStep >= swaStart) {
      return LearningRateSchedule.constant(swaRate, schedule.totalSteps());
    }
    return schedule;
  }

  double at(long step) {
    return forStage(step).at(step);
  }

  void set(double value) {
    set = value;
  }

  /** The rate a callback set, NaN while the schedule rules. */
  double setByCallback() {
    return set;
  }
}
