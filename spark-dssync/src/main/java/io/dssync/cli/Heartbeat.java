package io.dssync.cli;

import io.dssync.metrics.ProgressListener;
import io.dssync.metrics.StageMetrics;
import io.dssync.metrics.StepMetrics;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Off a terminal, progress lines come once per stage, and a stage of a large model can run for
 * minutes: a log or a CI job that stays silent that long looks hung. This listener prints a short
 * line whenever nothing was printed for {@link #PERIOD_SECONDS}.
 */
final class Heartbeat implements ProgressListener, AutoCloseable {
  static final long PERIOD_SECONDS = 30;

  private final PrintStream err;
  private final LongSupplier nanos;
  private final long startNanos;
  private ScheduledExecutorService timer;
  private long lastStageNanos;
  private long lastLineNanos;
  private int nextStage = 1;
  private int stages;

  Heartbeat(PrintStream err, LongSupplier nanos) {
    this.err = err;
    this.nanos = nanos;
    this.startNanos = nanos.getAsLong();
    this.lastStageNanos = startNanos;
    this.lastLineNanos = startNanos;
  }

  /** A heartbeat on the real clock, checked every second by a daemon thread until {@link #close}. */
  static Heartbeat start(PrintStream err) {
    Heartbeat h = new Heartbeat(err, System::nanoTime);
    h.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "dssync-heartbeat");
      t.setDaemon(true);
      return t;
    });
    h.timer.scheduleAtFixedRate(h::tick, 1, 1, TimeUnit.SECONDS);
    return h;
  }

  @Override
  public synchronized void onStage(StageMetrics m, List<StepMetrics> steps, int stages, long totalSteps) {
    this.stages = stages;
    this.nextStage = m.stage() + 2;
    this.lastStageNanos = nanos.getAsLong();
    this.lastLineNanos = lastStageNanos;
  }

  /** Prints a line when the last one is {@link #PERIOD_SECONDS} old. */
  synchronized void tick() {
    long now = nanos.getAsLong();
    if (TimeUnit.NANOSECONDS.toSeconds(now - lastLineNanos) < PERIOD_SECONDS) {
      return;
    }
    String stage = stages > 0 ? "stage " + nextStage + "/" + stages : "stage " + nextStage;
    err.printf(Locale.ROOT, "[dssync] still training: %s running, %d s since the last stage ended (%d s in all)%n",
        stage, TimeUnit.NANOSECONDS.toSeconds(now - lastStageNanos),
        TimeUnit.NANOSECONDS.toSeconds(now - startNanos));
    err.flush();
    lastLineNanos = now;
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
