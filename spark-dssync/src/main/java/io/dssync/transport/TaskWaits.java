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
  /**
   * How long a waiter yields in a loop before it parks (see {@link #spinBriefly}): a part that
   * arrives within it wakes the waiter without a park and unpark, which makes small all-reduces
   * several times faster. A longer wait costs at most this much CPU.
   */
  static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(300);

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

  /**
   * Runs {@code pump} (which blocks until something arrives or the time it is given passes) until
   * {@code done} or the deadline, checking at least every {@link #POLL_MS} whether the task was killed.
   */
  static void pumpUntil(Inbox.Pump pump, BooleanSupplier done, long deadlineNanos, TaskContext task) {
    while (!done.getAsBoolean()) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        return;
      }
      pump.pump(Math.min(left, TimeUnit.MILLISECONDS.toNanos(POLL_MS)));
      checkKilled(task);
    }
  }

  /**
   * Polls {@code done} for up to {@code budgetNanos} ({@link #SPIN_NANOS} for a part), yielding the
   * core between polls, and returns whether it became true. A parked thread is woken through the
   * scheduler (on a VM, often a halted virtual CPU that must be woken first); a thread that keeps
   * yielding sees the part as soon as it lands while still leaving the core to any other runnable
   * thread.
   */
  static boolean spinBriefly(BooleanSupplier done, long budgetNanos) {
    long end = System.nanoTime() + budgetNanos;
    while (!done.getAsBoolean()) {
      if (System.nanoTime() - end > 0) {
        return false;
      }
      Thread.yield();
    }
    return true;
  }

  private static void checkKilled(TaskContext task) {
    if (task != null) {
      task.killTaskIfInterrupted();
    }
  }
}
