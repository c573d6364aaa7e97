package io.dssync.errors;

import java.util.Locale;

/**
 * Spark failures turned into spark-dssync errors: the text Spark ships from a failed task, and heap exhaustion,
 * with the advice that fits it.
 */
public final class SparkFailures {
  private SparkFailures() {}

  private static final java.util.regex.Pattern REMOTE =
      java.util.regex.Pattern.compile("io\\.dssync\\.errors\\.DsSyncException\\[(\\w+)\\]: ([^\\n]*)");

  /**
   * Turns the failure of a Spark job that ran training tasks into the DsSyncException a task threw
   * (same kind and message: Spark ships only its text to the driver), or a STAGE_FAILED error.
   */
  public static DsSyncException fromTaskFailure(Throwable failure) {
    return fromTaskFailure(failure, "A training stage");
  }

  /** Like {@link #fromTaskFailure(Throwable)} for the job named {@code job} ("A training stage"). */
  public static DsSyncException fromTaskFailure(Throwable failure, String job) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof DsSyncException d) {
        return d;
      }
      java.util.regex.Matcher m = REMOTE.matcher(String.valueOf(t.getMessage()));
      if (m.find()) {
        return new DsSyncException(ErrorKind.valueOf(m.group(1)), m.group(2), failure);
      }
    }
    String text = String.valueOf(failure.getMessage());
    return new DsSyncException(ErrorKind.STAGE_FAILED, job + " failed: " + Errors.firstLine(text)
        + killedExecutorHint(text) + heapHint(text), failure);
  }

  private static final java.util.regex.Pattern KILLED = java.util.regex.Pattern.compile("exit(?:ed with)? code 137\\b");

  /**
   * An executor that exited with code 137 was killed (SIGKILL), most often for memory: Spark says
   * only "Command exited with code 137" (standalone) or "exit code 137" (Kubernetes).
   */
  static String killedExecutorHint(String sparkFailure) {
    return KILLED.matcher(sparkFailure).find()
        ? " An executor exited with code 137: its JVM was killed (SIGKILL), by the kernel's OOM killer or a"
            + " container's memory limit unless someone killed it on purpose. A replica's tensors live outside the"
            + " JVM heap: give executors more memory outside the heap (spark.executor.memoryOverhead on YARN and"
            + " Kubernetes, more worker memory on a standalone cluster) or train with a smaller --batch-size."
        : "";
  }

  /**
   * A task that ran out of Java heap: the examples are arrays on the heap (of the driver in local
   * mode, where Spark's "executor driver" runs the tasks; of the executors otherwise).
   */
  static String heapHint(String sparkFailure) {
    return sparkFailure.contains("OutOfMemoryError: Java heap space")
        ? " A task ran out of Java heap in " + heapAdvice(sparkFailure.contains("executor driver)")) : "";
  }

  /** Which heap to raise: the driver's ({@code onDriver}, local mode) or an executor's. */
  private static String heapAdvice(boolean onDriver) {
    return (onDriver
        ? "the driver's JVM, which runs the tasks in local mode: raise DSSYNC_DRIVER_MEMORY for ./dssync (default"
            + " 6g), spark-submit's --driver-memory, or DSSYNC_KERNEL_MEMORY when installing the notebook kernel"
        : "an executor's JVM: raise spark.executor.memory (spark-submit's --executor-memory)")
        + ", or train on fewer examples (--train-limit).";
  }

  /**
   * Allocating {@code bytes} for {@code what} failed: the JVM's heap ({@code maxHeap}, of which
   * {@code usedHeap} in use) is too small; {@code onDriver} when the driver runs the task.
   */
  public static DsSyncException outOfHeap(String what, long bytes, long maxHeap, long usedHeap, boolean onDriver) {
    return new DsSyncException(ErrorKind.CONFIG, String.format(Locale.ROOT, "Out of Java heap for %s (%d MiB; the"
        + " heap holds at most %d MiB, %d MiB of it in use): it is ", what, bytes >> 20, maxHeap >> 20,
        usedHeap >> 20) + heapAdvice(onDriver));
  }

  /**
   * The driver's own thread ran out of heap outside the allocations {@link #outOfHeap} guards (Spark
   * reading a spilled broadcast back, say): which of them fails first depends on the collector.
   */
  public static DsSyncException driverOutOfHeap(long maxHeap, long usedHeap) {
    return new DsSyncException(ErrorKind.CONFIG, String.format(Locale.ROOT, "Out of Java heap in the driver (the"
        + " heap holds at most %d MiB, %d MiB of it in use): it is ", maxHeap >> 20, usedHeap >> 20)
        + heapAdvice(true));
  }
}
