package io.dssync.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.metrics.ProgressListener;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.StageRetry;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainerConfigBuilder;
import io.dssync.train.TrainingData;
import io.dssync.train.TrainingResult;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Failures in the middle of a stage on local-cluster (four executor JVMs): a task exception, a
 * peer that stops answering, and a SIGKILLed executor. Each time the trainer reruns the stage from
 * the last consensus, and because a stage is a pure function of (consensus, seed, steps), the run
 * ends with exactly the parameters of the undisturbed run; accuracy is asserted within 0.01 too.
 * Tagged "cluster" (45 s on 2 cores): it runs with the cluster tests and on every Spark version of
 * .ci/spark-matrix, not in mvn test.
 */
@Tag("cluster")
class StageRetryTest {
  private static final double ACCURACY_TOLERANCE = 0.01;
  private static SparkSession spark;
  private static DatasetSplits data;
  private static TrainingResult undisturbed;

  @BeforeAll
  static void start() {
    spark = TestSpark.session();
    data = TestData.fashionMnist(2_000, 500);
    undisturbed = trainer(config().build()).fit(TrainingData.of(spark, data, 4));
    System.out.printf("[retry] undisturbed: test accuracy %.4f over %d steps%n", undisturbed.finalTestAccuracy(),
        undisturbed.totalSteps());
  }

  /** 4 workers, DS-Sync random g=2, MLP on Fashion-MNIST: 30 steps in 3 stages of 10. */
  private static TrainerConfigBuilder config() {
    return TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, 4).set(TrainerConfig.SCHEDULE, "random").set(TrainerConfig.GROUP_SIZE, 2)
        .set(TrainerConfig.MODEL, "mlp").set(TrainerConfig.BATCH_SIZE, 32).set(TrainerConfig.EPOCHS, 2)
        .set(TrainerConfig.STEPS_PER_STAGE, 10).set(TrainerConfig.EVAL_EVERY, 100)
        .set(TrainerConfig.MAX_STAGE_ATTEMPTS, 4)
        .set(TrainerConfig.SLOT_WAIT_MS, 90_000).set(TrainerConfig.SYNC_TIMEOUT_MS, 20_000);
  }

  private static DsSyncTrainer trainer(TrainerConfig config) {
    return new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent());
  }

  @Test
  void aTaskExceptionAtAChosenStepIsRetriedAndTheRunMatchesTheUndisturbedOne() {
    DsSyncTrainer trainer = trainer(config().build()).withWorkerHook(InjectedFault.throwsAt(15, 2, 1));
    TrainingResult result = trainer.fit(TrainingData.of(spark, data, 4));
    List<StageRetry> retries = result.retries();
    report("task exception at step 15 on rank 2", retries, result);
    assertEquals(1, retries.size(), retries.toString());
    assertEquals(2, retries.get(0).stage());
    assertTrue(retries.get(0).message().contains("Injected test fault (task exception) at step 15 on rank 2"),
        retries.get(0).message());
    assertSameAsUndisturbed(result);
  }

  @Test
  void aPeerThatNeverArrivesFailsItsGroupWithinTheDeadlineNamingItAndTheRetrySucceeds() {
    DsSyncTrainer trainer = trainer(config().set(TrainerConfig.SYNC_TIMEOUT_MS, 3_000).build())
        .withWorkerHook(InjectedFault.hangsAt(12, 1, 4 * 3_000));
    long t0 = System.nanoTime();
    TrainingResult result = trainer.fit(TrainingData.of(spark, data, 4));
    List<StageRetry> retries = result.retries();
    report(String.format("rank 1 hangs at step 12, sync timeout 3000 ms (run took %.1f s)",
        (System.nanoTime() - t0) / 1e9), retries, result);
    assertEquals(1, retries.size(), retries.toString());
    assertEquals(ErrorKind.SYNC_TIMEOUT, retries.get(0).kind(), retries.get(0).message());
    // Every rank that meets rank 1 from step 12 on waits for it, directly or behind another waiter,
    // and whichever waiter's timeout reaches the driver first fails the stage (on a loaded machine:
    // rank 0 at step 15, or rank 3 at step 15 waiting for rank 2, which waited for rank 1). Each
    // error follows the chain of waits to its head: rank 1, busy in its own work.
    assertTrue(retries.get(0).message().matches(
        "(?s).*waited 3000 ms at step (1[2-9]) .*rank 1 is not waiting for any peer.*"), retries.get(0).message());
    assertSameAsUndisturbed(result);
  }

  @Test
  void aStageThatKeepsFailingStopsAfterMaxAttemptsWithAClearError() {
    DsSyncTrainer trainer = trainer(config().set(TrainerConfig.MAX_STAGE_ATTEMPTS, 2).build())
        .withWorkerHook(InjectedFault.throwsAt(3, 0, 2));
    DsSyncException e = assertThrows(DsSyncException.class, () -> trainer.fit(TrainingData.of(spark, data, 4)));
    System.out.println("[retry] always failing stage: " + e.getMessage());
    assertTrue(e.getMessage().startsWith("Stage 1 failed 2 times"), e.getMessage());
    assertTrue(e.getMessage().contains("Injected test fault"), e.getMessage());
    assertTrue(e.partialResult().isPresent(), "the last consensus model is kept");
    assertEquals(1, ((TrainingResult) e.partialResult().get()).retries().size(), "the first attempt was retried");
  }

  @Test
  void anExecutorKilledMidStageIsReplacedAndTheStageRerunWithoutDoubleCountingSteps() throws Exception {
    ExecutorKiller killer = new ExecutorKiller(spark.sparkContext(), "dssync stage 2:");
    spark.sparkContext().addSparkListener(killer);
    DsSyncTrainer trainer = trainer(config().build());
    TrainingResult result;
    try {
      result = trainer.fit(TrainingData.of(spark, data, 4));
    } finally {
      spark.sparkContext().removeSparkListener(killer);
      awaitFullCluster();
    }
    System.out.println("[retry] " + killer.log);
    report("SIGKILL of an executor JVM at the start of a stage-2 task", result.retries(), result);
    assertTrue(killer.killed(), killer.log.toString());
    assertTrue(result.retries().size() >= 1, "the lost executor failed stage 2");
    assertTrue(result.retries().stream().allMatch(r -> r.stage() == 2), result.retries().toString());
    assertEquals(undisturbed.history().size(), result.history().size(), "each stage counted once");
    assertEquals(undisturbed.totalSteps(), result.last().endStep(), "no step counted twice");
    assertSameAsUndisturbed(result);
  }

  private static void assertSameAsUndisturbed(TrainingResult result) {
    assertTrue(Math.abs(result.finalTestAccuracy() - undisturbed.finalTestAccuracy()) <= ACCURACY_TOLERANCE,
        result.finalTestAccuracy() + " vs undisturbed " + undisturbed.finalTestAccuracy());
    assertArrayEquals(undisturbed.model().state(), result.model().state(),
        "a retried stage replays exactly: same parameters as the undisturbed run");
  }

  private static void report(String what, List<StageRetry> retries, TrainingResult result) {
    System.out.printf("[retry] %s: %d retr%s, final test accuracy %.4f vs undisturbed %.4f (diff %+.4f)%n", what,
        retries.size(), retries.size() == 1 ? "y" : "ies", result.finalTestAccuracy(),
        undisturbed.finalTestAccuracy(), result.finalTestAccuracy() - undisturbed.finalTestAccuracy());
    retries.forEach(r -> System.out.println("[retry]   stage " + r.stage() + " attempt " + r.attempt() + " [" + r.kind()
        + "]: " + r.message()));
  }

  /** Other tests share this session: leave it with all executors registered again. */
  private static void awaitFullCluster() throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (spark.sparkContext().getExecutorMemoryStatus().size() < TestSpark.EXECUTORS + 1) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the killed executor was not replaced within 120 s");
      }
      Thread.sleep(200);
    }
  }
}
