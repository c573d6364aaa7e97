package io.dssync.train;

import io.dssync.metrics.StageMetrics;
import java.io.Serializable;
import java.util.List;

/**
 * The outcome of {@link DsSyncTrainer#fit}: the consensus model, the per-stage history, and what
 * happened on the way: the stage attempts that were retried (in order; empty when nothing
 * failed), the input rows dropped under {@code --bad-records skip}, the step the run resumed
 * at from a checkpoint (-1 when it started fresh), why it stopped before its last planned stage
 * (null when it ran them all), and the stage (counted from 0) whose consensus is the model when that is
 * not the last one run (early stopping's best; -1 otherwise).
 */
public record TrainingResult(
    TrainedModel model,
    List<StageMetrics> history,
    String config,
    long totalSteps,
    double wallSeconds,
    List<StageRetry> retries,
    long skippedRecords,
    long resumedAtStep,
    FitStop stop,
    int modelStage)
    implements Serializable {

  /** Whether early stopping or a callback ended the fit before its last planned stage. */
  public boolean stoppedEarly() {
    return stop != null;
  }

  /** The step training reached: the planned {@link #totalSteps} unless early stopping or a callback ended it. */
  public long stepsReached() {
    long reached = history.stream().mapToLong(StageMetrics::endStep).max().orElse(0);
    return Math.min(totalSteps, Math.max(reached, resumedAtStep));
  }

  public StageMetrics last() {
    return history.get(history.size() - 1);
  }

  /** Test accuracy of the model: its stage's evaluation (NaN when it was not evaluated). */
  public double finalTestAccuracy() {
    return StageMetrics.ofModel(history, modelStage).map(StageMetrics::testAccuracy).orElse(Double.NaN);
  }

  /** The model's test metric ("accuracy", "masked_accuracy", "auc") of the last evaluated stage. */
  public double finalTestMetric() {
    return StageMetrics.ofModel(history, modelStage).map(StageMetrics::testMetric).orElse(Double.NaN);
  }

  /** Name of {@link #finalTestMetric()}: the task's metric of the trained model. */
  public String finalTestMetricName() {
    return model.spec() == null ? "accuracy" : model.spec().lossKind().metricName();
  }

  /** Mean over stages of the sync share of step time. */
  public double meanSyncShare() {
    return StageMetrics.meanSyncShare(history);
  }
}
