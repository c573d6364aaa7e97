package io.dssync.bench.train;

import io.dssync.metrics.StageMetrics;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingResult;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * What one configuration of a training benchmark measured, with the figures the tables show;
 * {@code round} is the round of {@code --rounds} it ran in (1 for the first or only one).
 */
public record TrainBenchOutcome(TrainBenchConfigs.Sync sync, TrainerConfig config, TrainingResult result,
    TrainBenchCurve curve, int round) {

  static TrainBenchOutcome of(TrainBenchConfigs.Sync sync, TrainerConfig config, TrainingResult result) {
    return new TrainBenchOutcome(sync, config, result, TrainBenchCurve.of(result.history()), 1);
  }

  TrainBenchOutcome inRound(int r) {
    return new TrainBenchOutcome(sync, config, result, curve, r);
  }

  /** Seconds inside training stages (evaluation, data sharding and start-up excluded). */
  public double trainSeconds() {
    return result.history().stream().mapToDouble(StageMetrics::wallSeconds).sum();
  }

  double samplesPerSecond() {
    long samples = result.totalSteps() * config.workers() * config.get(TrainerConfig.BATCH_SIZE);
    return samples / trainSeconds();
  }

  /** Step-weighted mean over stages (a short last stage counts for its steps only). */
  double computeMsPerStep() {
    return stepWeighted(result.history(), StageMetrics::computeMsPerStep);
  }

  double syncMsPerStep() {
    return stepWeighted(result.history(), StageMetrics::syncMsPerStep);
  }

  /** The part of {@link #syncMsPerStep} spent waiting for peers' parts. */
  double syncWaitMsPerStep() {
    return stepWeighted(result.history(), StageMetrics::waitMsPerStep);
  }

  /** Floats of the model's state vector (what a global average moves). */
  public int stateFloats() {
    return result.model().state().length;
  }

  private static double stepWeighted(List<StageMetrics> history, ToDoubleFunction<StageMetrics> perStep) {
    double sum = 0;
    long steps = 0;
    for (StageMetrics m : history) {
      long k = m.endStep() - m.firstStep();
      sum += k * perStep.applyAsDouble(m);
      steps += k;
    }
    return steps == 0 ? Double.NaN : sum / steps;
  }
}
