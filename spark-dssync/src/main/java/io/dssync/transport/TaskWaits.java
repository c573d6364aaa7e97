package io.dssync.transport;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.spark.TaskContext;

/**
 * Deadline waits that notice a killed task: they wake at least every {@link #POLL_MS} to call
 * {@code killTaskIfInterrupted}, so a stage that Spark cancels (for example because another
 * barrier task failed) ends instead of waiting out the deadline.
 */
final class TaskWaits {
  static final long POLL_MS = 100;

  private TaskWaits() {}

  /**
   * Waits on {@code monitor} (held by the caller) until {@code done} or the deadline; the code
   * that changes the state calls {@code monitor.notifyAll()}. Returns {@code done}'s last value.
   */
  static boolean awaitOn(Object monitor, BooleanSupplier done, long deadlineNanos, TaskContext task) {
    while (!done.getAsBoolean()) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(monitor, Math.min(left, TimeUnit.MILLISECONDS.toNanos(POLL_MS)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        checkKilled(task);
        throw new IllegalStateException("interrupted while waiting for peers", e);
      }
      checkKilled(task);
    }
    return true;
  }

  private static void checkKilled(TaskContext task) {
    if (task != null) {
      task.killTaskIfInterrupted();
    }
  }
}
