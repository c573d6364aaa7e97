package io.dssync.train;

import java.io.Serializable;

/** Learning rate at a global step: optional linear warm-up, then constant, cosine or step decay. */
record LearningRateSchedule(String kind, double peak, int warmupSteps, long totalSteps)
    implements Serializable {

  /** One rate for every step. */
  static LearningRateSchedule constant(double rate, long totalSteps) {
    return new LearningRateSchedule("constant", rate, 0, totalSteps);
  }

  public float at(long step) {
    if (step < warmupSteps) {
      return (float) (peak * (step + 1) / warmupSteps);
    }
    double progress = totalSteps <= warmupSteps ? 1.0
        : (double) (step - warmupSteps) / (totalSteps - warmupSteps);
    double lr = switch (kind) {
      case "cosine" -> 0.5 * peak * (1 + Math.cos(Math.PI * Math.min(1.0, progress)));
      case "step" -> progress < 0.5 ? peak : progress < 0.75 ? peak * 0.1 : peak * 0.01;
      default -> peak;
    };
    return (float) lr;
  }
}
