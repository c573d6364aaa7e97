package io.dssync.train;

/** Receives one call per finished stage, on the driver. */
@FunctionalInterface
public interface ProgressListener {
  void onStage(StageMetrics metrics, int stages, long totalSteps);

  /** One line per stage on standard error, in the style users of Spark training libraries expect. */
  static ProgressListener printing() {
    return (m, stages, total) -> System.err.println(ProgressLine.format(m, stages, total));
  }

  static ProgressListener silent() {
    return (m, stages, total) -> {};
  }
}
