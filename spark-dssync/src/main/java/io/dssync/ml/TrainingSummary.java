package io.dssync.ml;

import io.dssync.metrics.StageMetrics;
import io.dssync.train.FitStop;
import io.dssync.train.TrainingResult;
import java.io.Serializable;
import java.util.List;

/**
 * What a fitted {@link DsSyncClassificationModel} remembers of its training: the per-stage history
 * (train loss, validation loss and accuracy, timings, sync statistics, consensus distance), the
 * configuration, the step count, the wall time, why training stopped before its last planned stage (null when
 * it ran them all), and the stage (from 0) whose consensus is the model when that is not the last one (early
 * stopping's best; null otherwise), whose evaluation the final accuracy and metric are. Saved and loaded with the
 * model.
 */
public record TrainingSummary(List<StageMetrics> history, String config, long totalSteps, double wallSeconds,
    FitStop stop, Integer modelStage) implements Serializable {

  public TrainingSummary {
    history = List.copyOf(history);
  }

  static TrainingSummary of(TrainingResult result) {
    return new TrainingSummary(result.history(), result.config(), result.totalSteps(), result.wallSeconds(),
        result.stop(), result.modelStage() >= 0 ? result.modelStage() : null);
  }

  /** The evaluation of the stage whose consensus is the model (early stopping's best, else the last evaluated). */
  private java.util.Optional<StageMetrics> model() {
    return StageMetrics.ofModel(history, modelStage == null ? -1 : modelStage);
  }

  /** Whether early stopping or a stage callback ended training before its last planned stage ({@link #stop}). */
  public boolean stoppedEarly() {
    return stop != null;
  }

  /** Mean training loss of each stage. */
  public double[] lossHistory() {
    return history.stream().mapToDouble(StageMetrics::trainLoss).toArray();
  }

  /** Validation accuracy of each stage (NaN for stages that were not evaluated). */
  public double[] accuracyHistory() {
    return history.stream().mapToDouble(StageMetrics::testAccuracy).toArray();
  }

  /** Validation accuracy of the last evaluated stage, NaN when nothing was evaluated. */
  public double finalAccuracy() {
    return model().map(StageMetrics::testAccuracy).orElse(Double.NaN);
  }

  /** The model's test metric (accuracy, masked_accuracy or auc) of the last evaluated stage, NaN when none. */
  public double finalMetric() {
    return model().map(StageMetrics::testMetric).orElse(Double.NaN);
  }

  /** Mean over stages of the share of step time spent synchronizing. */
  public double meanSyncShare() {
    return StageMetrics.meanSyncShare(history);
  }

  public double meanSyncMsPerStep() {
    return StageMetrics.meanOverStages(history, StageMetrics::syncMsPerStep);
  }

  /** Mean over stages of the part of {@link #meanSyncMsPerStep} spent waiting for peers' parts. */
  public double meanSyncWaitMsPerStep() {
    return StageMetrics.meanOverStages(history, StageMetrics::waitMsPerStep);
  }

  public double meanSamplesPerSecond() {
    return StageMetrics.meanOverStages(history, StageMetrics::samplesPerSecond);
  }
}
