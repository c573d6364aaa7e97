package io.dssync.train;

import io.dssync.errors.TrainingErrors;
import java.io.Serializable;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.RuntimeConfig;

/**
 * A fault injected on purpose, for the reliability tests only: at step {@code step}, rank {@code
 * rank} either throws ({@code throw}) or stops answering its group ({@code hang}), during the
 * first {@code attempts} attempts of that stage. Set on the driver through the session's runtime
 * configuration ({@code spark.conf.set}), which needs no restart:
 * {@code spark.dssync.test.failAtStep} (unset = off), {@code spark.dssync.test.failRank} (0),
 * {@code spark.dssync.test.failMode} (throw) and {@code spark.dssync.test.failAttempts} (1).
 */
record TestFault(long step, int rank, boolean hang, long hangLimitMs) implements Serializable {
  static final String PREFIX = "spark.dssync.test.";
  static final TestFault NONE = new TestFault(-1, -1, false, 0);

  /** The fault for attempt {@code attempt} (from 1) of the stage running {@code [first, end)}, or {@link #NONE}. */
  static TestFault forStage(RuntimeConfig conf, long first, long end, int attempt, long syncTimeoutMs) {
    String at = conf.get(PREFIX + "failAtStep", "");
    if (at.isEmpty()) {
      return NONE;
    }
    long step = Long.parseLong(at);
    int attempts = Integer.parseInt(conf.get(PREFIX + "failAttempts", "1"));
    if (step < first || step >= end || attempt > attempts) {
      return NONE;
    }
    boolean hang = "hang".equals(conf.get(PREFIX + "failMode", "throw"));
    // A hung rank gives up on its own well after its peers' deadline: nothing waits forever.
    return new TestFault(step, Integer.parseInt(conf.get(PREFIX + "failRank", "0")), hang, 4 * syncTimeoutMs);
  }

  /** Called by rank {@code r} after computing step {@code s} and before averaging it. */
  void beforeAveraging(int r, long s) {
    if (r != rank || s != step) {
      return;
    }
    if (hang) {
      long end = System.nanoTime() + hangLimitMs * 1_000_000L;
      while (System.nanoTime() < end) {
        TaskContext task = TaskContext.get();
        if (task != null) {
          task.killTaskIfInterrupted(); // the failed barrier stage kills us: leave then
        }
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    throw TrainingErrors.injectedFault(r, s, hang ? "stopped answering its group" : "task exception");
  }
}
