package io.dssync.metrics;

import java.io.Serializable;

/**
 * What the driver knows after one stage: timings are means over workers and steps; test metrics
 * are NaN when the stage was not evaluated. {@code testMetricName} names the model's metric
 * ("accuracy", "masked_accuracy" or "auc"); for classifiers {@code testMetric} is the accuracy.
 * {@code stageEndMs} is the stage-end average of all workers (model and optimizer state), a mean
 * over workers: it is part of the stage's wall time but of no step's sync time; NaN when unknown.
 */
public record StageMetrics(
    int stage,
    long firstStep,
    long endStep,
    double epoch,
    double wallSeconds,
    double samplesPerSecond,
    double trainLoss,
    double testLoss,
    double testAccuracy,
    double computeMsPerStep,
    double syncMsPerStep,
    double waitMsPerStep,
    double transferMsPerStep,
    double bytesSentPerStep,
    double consensusDistance,
    String testMetricName,
    double testMetric,
    double stageEndMs)
    implements Serializable {

  /** A classifier's stage: the test metric is the accuracy. */
  public StageMetrics(int stage, long firstStep, long endStep, double epoch, double wallSeconds,
      double samplesPerSecond, double trainLoss, double testLoss, double testAccuracy, double computeMsPerStep,
      double syncMsPerStep, double waitMsPerStep, double transferMsPerStep, double bytesSentPerStep,
      double consensusDistance) {
    this(stage, firstStep, endStep, epoch, wallSeconds, samplesPerSecond, trainLoss, testLoss, testAccuracy,
        computeMsPerStep, syncMsPerStep, waitMsPerStep, transferMsPerStep, bytesSentPerStep, consensusDistance,
        "accuracy", testAccuracy, Double.NaN);
  }

  /** Share of a step spent synchronizing, in [0, 1]. */
  public double syncShare() {
    double total = computeMsPerStep + syncMsPerStep;
    return total == 0 ? 0 : syncMsPerStep / total;
  }

  /** Whether the driver evaluated this stage: a regression's accuracy is NaN even then, its R² is not. */
  public boolean evaluated() {
    return !Double.isNaN(testAccuracy) || !Double.isNaN(testMetric);
  }

  /** Test accuracy of the last evaluated stage of {@code history}, NaN when none was evaluated. */
  public static double finalTestAccuracy(java.util.List<StageMetrics> history) {
    for (int i = history.size() - 1; i >= 0; i--) {
      if (history.get(i).evaluated()) {
        return history.get(i).testAccuracy();
      }
    }
    return Double.NaN;
  }

  /**
   * The evaluated stage {@code modelStage} (counted from 0) of {@code history}, the stage whose consensus is the
   * model; for -1 (the model is the last consensus) or a stage not found, the last evaluated one.
   */
  public static java.util.Optional<StageMetrics> ofModel(java.util.List<StageMetrics> history, int modelStage) {
    if (modelStage >= 0) {
      for (StageMetrics m : history) {
        if (m.stage() == modelStage && m.evaluated()) {
          return java.util.Optional.of(m);
        }
      }
    }
    return lastEvaluated(history);
  }

  /** The last evaluated stage of {@code history}, if any. */
  public static java.util.Optional<StageMetrics> lastEvaluated(java.util.List<StageMetrics> history) {
    for (int i = history.size() - 1; i >= 0; i--) {
      if (history.get(i).evaluated()) {
        return java.util.Optional.of(history.get(i));
      }
    }
    return java.util.Optional.empty();
  }

  /** Mean over the stages of {@code history} of the share of step time spent synchronizing. */
  public static double meanSyncShare(java.util.List<StageMetrics> history) {
    return meanOverStages(history, StageMetrics::syncShare);
  }

  /**
   * Mean over the stages of {@code history} that trained (each counts once; an evaluation without steps, as of an
   * SWA mean, does not) of {@code perStage}; 0 when none.
   */
  public static double meanOverStages(java.util.List<StageMetrics> history,
      java.util.function.ToDoubleFunction<StageMetrics> perStage) {
    return history.stream().filter(m -> m.endStep() > m.firstStep()).mapToDouble(perStage).average().orElse(0);
  }
}
