package io.dssync.metrics;

import java.util.Locale;

/**
 * Formats a stage's metrics as one human-readable line. The sync names how much of it was waiting for
 * peers' parts to start arriving: where a partner's step is slower (a busy core, a slower CPU), that,
 * not moving or averaging the parameters, is most of it.
 */
public final class ProgressLine {
  private ProgressLine() {}

  public static String format(StageMetrics m, int stages, long totalSteps) {
    String test = !m.evaluated() ? ""
        : "accuracy".equals(m.testMetricName())
        ? String.format(Locale.ROOT, " | test acc %.4f loss %.4f", m.testAccuracy(), m.testLoss())
        // masked-LM: the metric is an accuracy already; regression (R²): there is no accuracy
        : m.testMetric() == m.testAccuracy() || Double.isNaN(m.testAccuracy())
        ? String.format(Locale.ROOT, " | test %s %.4f loss %.4f", m.testMetricName(), m.testMetric(), m.testLoss())
        : String.format(Locale.ROOT, " | test %s %.4f acc %.4f loss %.4f", m.testMetricName(), m.testMetric(),
            m.testAccuracy(), m.testLoss());
    return String.format(Locale.ROOT,
        "[dssync] stage %d/%d epoch %.2f step %d/%d | %.1f s | %,.0f samples/s | loss %.4f%s"
            + " | sync %.1f%% (%.2f ms/step, %.2f of it waiting for peers)%s | consensus dist %.4g",
        m.stage() + 1, stages, m.epoch(), m.endStep(), totalSteps, m.wallSeconds(),
        m.samplesPerSecond(), m.trainLoss(), test, 100 * m.syncShare(), m.syncMsPerStep(), m.waitMsPerStep(),
        stageEnd(m), m.consensusDistance());
  }

  /** The stage-end average, which the per-step sync leaves out; empty when unknown. */
  public static String stageEnd(StageMetrics m) {
    return Double.isNaN(m.stageEndMs()) ? ""
        : String.format(Locale.ROOT, ", stage-end average %.0f ms", m.stageEndMs());
  }
}
