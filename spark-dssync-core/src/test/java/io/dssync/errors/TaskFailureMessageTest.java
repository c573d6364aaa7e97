package io.dssync.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What the driver says when a training stage's Spark job fails. */
class TaskFailureMessageTest {
  private static final String LOST = "Job aborted due to stage failure: Task 2 in stage 5.0 failed 1 times, most recent"
      + " failure: Lost task 2.0 in stage 5.0 (TID 22) (127.0.0.1 executor 2): ExecutorLostFailure (executor 2"
      + " exited caused by one of the running tasks) Reason: ";

  @Test
  void anExecutorKilledWithExitCode137IsExplainedAsMostLikelyMemoryWithTheFix() {
    DsSyncException e =
        SparkFailures.fromTaskFailure(new RuntimeException(LOST + "Command exited with code 137\nDriver stacktrace:"));
    assertEquals(ErrorKind.STAGE_FAILED, e.kind());
    assertTrue(e.getMessage().startsWith("A training stage failed: " + LOST + "Command exited with code 137 An"
        + " executor exited with code 137: its JVM was killed (SIGKILL)"), e.getMessage());
    assertTrue(e.getMessage().contains("spark.executor.memoryOverhead") && e.getMessage().contains("--batch-size"),
        e.getMessage());
    assertTrue(SparkFailures.fromTaskFailure(
        new RuntimeException("The executor with id 3 exited with exit code 137(SIGKILL,"
        + " possible container OOM).")).getMessage().contains("OOM killer"));
  }

  @Test
  void otherLostExecutorsGetNoMemoryHint() {
    for (String reason : new String[] {"Command exited with code 1", "Command exited with code 1370",
        "Remote RPC client disassociated."}) {
      DsSyncException e = SparkFailures.fromTaskFailure(new RuntimeException(LOST + reason));
      assertEquals("A training stage failed: " + LOST + reason, e.getMessage());
      assertFalse(e.getMessage().contains("SIGKILL") || e.getMessage().contains("heap"), e.getMessage());
    }
  }

  @Test
  void aDsSyncErrorThrownInATaskComesBackWithItsKindAndMessage() {
    DsSyncException e = SparkFailures.fromTaskFailure(new RuntimeException(LOST.replace("ExecutorLostFailure", "")
        + "io.dssync.errors.DsSyncException[SYNC_TIMEOUT]: Rank 1 waited for rank 3\n\tat x"));
    assertEquals(ErrorKind.SYNC_TIMEOUT, e.kind());
    assertEquals("Rank 1 waited for rank 3", e.getMessage());
  }

  @Test
  void aTaskOutOfJavaHeapNamesTheJvmWhoseHeapToRaise() {
    String local = "Job aborted due to stage failure: Task 0 in stage 0.0 failed 1 times, most recent failure: Lost task"
        + " 0.0 in stage 0.0 (TID 0) (localhost executor driver): java.lang.OutOfMemoryError: Java heap space\n\tat x";
    DsSyncException e = SparkFailures.fromTaskFailure(new RuntimeException(local),
        "Cutting the training data into shards");
    assertEquals(ErrorKind.STAGE_FAILED, e.kind());
    assertTrue(e.getMessage().startsWith("Cutting the training data into shards failed: Job aborted"), e.getMessage());
    assertTrue(e.getMessage().endsWith("Java heap space A task ran out of Java heap in the driver's JVM, which runs the"
        + " tasks in local mode: raise DSSYNC_DRIVER_MEMORY for ./dssync (default 6g), spark-submit's --driver-memory,"
        + " or DSSYNC_KERNEL_MEMORY when installing the notebook kernel, or train on fewer examples (--train-limit)."),
        e.getMessage());
    String remote = LOST.replace("ExecutorLostFailure (executor 2 exited caused by one of the running tasks) Reason: ",
        "java.lang.OutOfMemoryError: Java heap space");
    assertTrue(SparkFailures.fromTaskFailure(new RuntimeException(remote)).getMessage()
        .endsWith("Java heap space A task ran"
        + " out of Java heap in an executor's JVM: raise spark.executor.memory (spark-submit's --executor-memory), or"
        + " train on fewer examples (--train-limit)."));
  }
}
