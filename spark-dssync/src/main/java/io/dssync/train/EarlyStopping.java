package io.dssync.train;

import io.dssync.metrics.StageMetrics;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Early stopping on the driver: after every evaluated stage it compares the watched validation value with the best
 * so far, keeps a copy of the best consensus model, and says when {@code patience} evaluations in a row have not
 * beaten it by more than {@code minDelta}. Its state ({@link Progress}) goes into checkpoints, so a resumed run
 * keeps counting where the stopped one was.
 */
final class EarlyStopping {
  private final int patience;
  private final double minDelta;
  private final boolean watchesLoss;
  private Progress progress = Progress.NONE;

  /**
   * Where early stopping stands: the best value seen (as a score, higher is better), the stage that reached it
   * (0-based, -1 before any evaluation), the evaluations since, and that stage's consensus model.
   */
  record Progress(double bestScore, int bestStage, int evaluationsSinceBest, float[] bestModel) {
    static final Progress NONE = new Progress(Double.NaN, -1, 0, new float[0]);

    boolean any() {
      return bestStage >= 0;
    }
  }

  EarlyStopping(int patience, double minDelta, boolean watchesLoss) {
    this.patience = patience;
    this.minDelta = minDelta;
    this.watchesLoss = watchesLoss;
  }

  static EarlyStopping of(TrainerConfig config) {
    return new EarlyStopping(config.get(TrainerConfig.EARLY_STOP_PATIENCE),
        config.get(TrainerConfig.EARLY_STOP_MIN_DELTA), "loss".equals(config.get(TrainerConfig.EARLY_STOP_METRIC)));
  }

  int patience() {
    return patience;
  }

  boolean enabled() {
    return patience > 0;
  }

  Progress progress() {
    return progress;
  }

  /** Continues from a checkpoint's progress. */
  void restore(Progress saved) {
    progress = saved;
  }

  /**
   * Takes an evaluated stage's metrics and its consensus {@code model} (copied when it is the best so far).
   * Returns why training should stop now, or empty to go on; stages without an evaluation change nothing.
   */
  Optional<String> observe(StageMetrics metrics, float[] model) {
    if (!enabled() || !metrics.evaluated()) {
      return Optional.empty();
    }
    double score = score(metrics);
    boolean improved = !Double.isNaN(score)
        && (!progress.any() || Double.isNaN(progress.bestScore()) || score > progress.bestScore() + minDelta);
    if (improved) {
      progress = new Progress(score, metrics.stage(), 0, Arrays.copyOf(model, model.length));
      return Optional.empty();
    }
    progress = new Progress(progress.bestScore(), progress.bestStage(), progress.evaluationsSinceBest() + 1,
        progress.bestModel());
    return outOfPatience() ? Optional.of(reason(watchedName(metrics.testMetricName()))) : Optional.empty();
  }

  /** Whether {@code patience} evaluations in a row have not improved: true at once for a run resumed after its stop. */
  boolean outOfPatience() {
    return enabled() && progress.any() && progress.evaluationsSinceBest() >= patience;
  }

  /** Why training stopped, for a run that resumed with no patience left (the metric's name is not at hand). */
  String reasonOnResume() {
    return reason(watchedName("metric"));
  }

  private String reason(String watched) {
    return String.format(Locale.ROOT, "%s did not improve by more than %s for %d evaluations after stage %d",
        watched, minDelta, progress.evaluationsSinceBest(), progress.bestStage() + 1);
  }

  /** Higher is better: the task's metric as it is, a loss negated. */
  private double score(StageMetrics metrics) {
    if (watchesLoss) {
      return -metrics.testLoss();
    }
    return lowerIsBetter(metrics) ? -metrics.testMetric() : metrics.testMetric();
  }

  /** A custom loss's metric is that loss: lower is better; accuracy, AUC and R2 are higher-is-better. */
  private static boolean lowerIsBetter(StageMetrics metrics) {
    return "loss".equals(metrics.testMetricName());
  }

  private String watchedName(String metricName) {
    return "the validation " + (watchesLoss ? "loss" : metricName);
  }
}
