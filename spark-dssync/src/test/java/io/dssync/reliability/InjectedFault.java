package io.dssync.reliability;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.train.WorkerHook;
import org.apache.spark.TaskContext;

/**
 * A fault injected on purpose through {@link WorkerHook}: at step {@code step}, rank {@code rank} either throws or
 * (with {@code hang}) stops answering its group, during the first {@code attempts} attempts of that stage. A hung
 * rank gives up on its own after {@code hangLimitMs}, well after its peers' deadline: nothing waits for ever.
 */
record InjectedFault(long step, int rank, boolean hang, int attempts, long hangLimitMs) implements WorkerHook {
  static InjectedFault throwsAt(long step, int rank, int attempts) {
    return new InjectedFault(step, rank, false, attempts, 0);
  }

  static InjectedFault hangsAt(long step, int rank, long hangLimitMs) {
    return new InjectedFault(step, rank, true, 1, hangLimitMs);
  }

  @Override
  public void beforeAveraging(int r, long s, int attempt) {
    if (r != rank || s != step || attempt > attempts) {
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
    throw new DsSyncException(ErrorKind.STAGE_FAILED, "Injected test fault (" + (hang ? "stopped answering its group"
        : "task exception") + ") at step " + s + " on rank " + r + ".");
  }
}
