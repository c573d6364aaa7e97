package io.dssync.train;

/**
 * The learning rates of one fit: the configured schedule, until a {@link StageCallback} sets one rate for every
 * following step.
 */
final class LearningRates {
  private final LearningRateSchedule schedule;
  private double set;

  LearningRates(LearningRateSchedule schedule, double set) {
    this.schedule = schedule;
    this.set = set;
  }

  /** What the next stage's workers follow. */
  LearningRateSchedule current() {
    return Double.isNaN(set) ? schedule : LearningRateSchedule.constant(set, schedule.totalSteps());
  }

  double at(long step) {
    return current().at(step);
  }

  void set(double value) {
    set = value;
  }

  /** The rate a callback set, NaN while the schedule rules. */
  double setByCallback() {
    return set;
  }
}
