package io.dssync.metrics;

import java.util.List;

/**
 * Receives one call per finished stage, on the driver: the stage's summary and its per-step
 * records (means over workers), plus how many stages and steps the run has in all.
 */
@FunctionalInterface
public interface ProgressListener {
  void onStage(StageMetrics metrics, List<StepMetrics> steps, int stages, long totalSteps);

  /** One line per stage on standard error, in the style users of Spark training libraries expect. */
  static ProgressListener printing() {
    return (m, steps, stages, total) -> System.err.println(ProgressLine.format(m, stages, total));
  }

  static ProgressListener silent() {
    return (m, steps, stages, total) -> {};
  }

  /** Calls this listener, then {@code next}. */
  default ProgressListener andThen(ProgressListener next) {
    return (m, steps, stages, total) -> {
      onStage(m, steps, stages, total);
      next.onStage(m, steps, stages, total);
    };
  }
}
