package io.dssync.train;

import java.io.Serializable;
import java.util.List;

/** The outcome of {@link DsSyncTrainer#fit}: the consensus model and the per-stage history. */
public record TrainingResult(
    TrainedModel model,
    List<StageMetrics> history,
    String config,
    long totalSteps,
    double wallSeconds)
    implements Serializable {

  public StageMetrics last() {
    return history.get(history.size() - 1);
  }

  /** Test accuracy of the last evaluated stage (NaN when nothing was evaluated). */
  public double finalTestAccuracy() {
    for (int i = history.size() - 1; i >= 0; i--) {
      if (history.get(i).evaluated()) {
        return history.get(i).testAccuracy();
      }
    }
    return Double.NaN;
  }

  /** Mean over stages of the sync share of step time. */
  public double meanSyncShare() {
    return history.stream().mapToDouble(StageMetrics::syncShare).average().orElse(0);
  }
}
