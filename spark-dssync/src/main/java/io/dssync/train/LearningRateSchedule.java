package io.dssync.train;

import java.io.Serializable;

/**
 * Learning rate at a global step (0-based, {@code totalSteps} in the run): optional linear warm-up over
 * {@code warmupSteps}, then constant, cosine (to 0), step ({@link StepDecay}) or linear (to 0) decay over
 * the steps after it; or one-cycle ({@link OneCycle}), which has its own warm-up.
 */
record LearningRateSchedule(String kind, double peak, int warmupSteps, long totalSteps, StepDecay stepDecay,
    OneCycle oneCycle) implements Serializable {

  /** A schedule whose step decay and one-cycle shape are the defaults. */
  LearningRateSchedule(String kind, double peak, int warmupSteps, long totalSteps) {
    this(kind, peak, warmupSteps, totalSteps, StepDecay.DEFAULT, OneCycle.DEFAULT);
  }

  /** One rate for every step. */
  static LearningRateSchedule constant(double rate, long totalSteps) {
    return new LearningRateSchedule("constant", rate, 0, totalSteps);
  }

  public float at(long step) {
    if (kind.equals("onecycle")) {
      return (float) oneCycle.at(peak, step, totalSteps);
    }
    if (step < warmupSteps) {
      return (float) (peak * (step + 1) / warmupSteps);
    }
    double progress = totalSteps <= warmupSteps ? 1.0
        : (double) (step - warmupSteps) / (totalSteps - warmupSteps);
    double lr = switch (kind) {
      case "cosine" -> 0.5 * peak * (1 + Math.cos(Math.PI * Math.min(1.0, progress)));
      case "step" -> peak * stepDecay.multiplier(step - warmupSteps, progress);
      case "linear" -> peak * (1 - Math.min(1.0, progress));
      default -> peak;
    };
    return (float) lr;
  }
}
