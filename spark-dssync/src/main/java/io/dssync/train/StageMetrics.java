package io.dssync.train;

import java.io.Serializable;

/**
 * What the driver knows after one stage: timings are means over workers and steps; test metrics
 * are NaN when the stage was not evaluated.
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
    double consensusDistance)
    implements Serializable {

  /** Share of a step spent synchronizing, in [0, 1]. */
  public double syncShare() {
    double total = computeMsPerStep + syncMsPerStep;
    return total == 0 ? 0 : syncMsPerStep / total;
  }

  public boolean evaluated() {
    return !Double.isNaN(testAccuracy);
  }
}
