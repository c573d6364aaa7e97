package io.dssync.cli;

import io.dssync.metrics.ProgressLine;
import io.dssync.metrics.ProgressListener;
import io.dssync.metrics.StageMetrics;
import io.dssync.metrics.StepMetrics;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * A live progress bar for a terminal, redrawn in place after every stage: done share, step,
 * loss, accuracy, throughput, sync share (and how much of it was waiting for peers) and an estimate
 * of the time left. Off a terminal (logs, pipes, CI) the plain per-stage {@link ProgressLine} is
 * used instead, see {@link #choose}.
 */
final class ProgressBar implements ProgressListener {
  static final int BAR_WIDTH = 30;

  private final PrintStream out;
  private double elapsedSeconds;
  private double lastMetric = Double.NaN;
  private String metricName = "acc";

  ProgressBar(PrintStream out) {
    this.out = out;
  }

  /** The bar when a terminal is attached (System.console() != null), else one line per stage. */
  static ProgressListener choose(boolean terminal, PrintStream err) {
    if (terminal) {
      return new ProgressBar(err);
    }
    return (m, steps, stages, total) -> err.println(ProgressLine.format(m, stages, total));
  }

  @Override
  public void onStage(StageMetrics m, List<StepMetrics> steps, int stages, long totalSteps) {
    elapsedSeconds += m.wallSeconds();
    if (m.evaluated()) {
      lastMetric = m.testMetric();
      // Classifiers keep the short "acc"; other tasks show their metric's name ("auc", ...).
      metricName = "accuracy".equals(m.testMetricName()) ? "acc" : m.testMetricName();
    }
    boolean last = m.stage() + 1 == stages;
    // \r returns to the line start; trailing spaces wipe what a longer previous line left.
    out.print("\r" + render(m, totalSteps) + "   ");
    if (last) {
      out.println();
    }
    out.flush();
  }

  String render(StageMetrics m, long totalSteps) {
    double done = totalSteps == 0 ? 1 : (double) m.endStep() / totalSteps;
    int filled = (int) Math.round(done * BAR_WIDTH);
    double eta = done > 0 ? elapsedSeconds * (1 - done) / done : Double.NaN;
    String accuracy = Double.isNaN(lastMetric) ? "" : String.format(Locale.ROOT, " | %s %.4f", metricName, lastMetric);
    // The part of the sync spent waiting for peers: where it is most of it, the partner's step, not the data plane,
    // sets the share (as the plain line says in ms).
    String waiting = m.syncMsPerStep() > 0
        ? String.format(Locale.ROOT, " (%.0f%% waiting)", 100 * m.waitMsPerStep() / m.syncMsPerStep()) : "";
    return String.format(Locale.ROOT, "[%s%s] %3.0f%% step %d/%d | loss %.4f%s | %,.0f samples/s"
        + " | sync %.1f%%%s | ETA %s",
        "#".repeat(filled), "-".repeat(BAR_WIDTH - filled), 100 * done, m.endStep(), totalSteps,
        m.trainLoss(), accuracy, m.samplesPerSecond(), 100 * m.syncShare(), waiting, duration(eta));
  }

  private static String duration(double seconds) {
    if (!Double.isFinite(seconds)) {
      return "?";
    }
    long s = Math.round(seconds);
    return s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
  }
}
