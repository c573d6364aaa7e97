package io.dssync.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingData;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Interrupting the thread that runs a fit (what a notebook's stop button does) ends training with
 * an INTERRUPTED error and cancels the running stage's Spark job, instead of retrying the stage
 * while the old job trains on.
 */
class InterruptedFitTest {
  @Test
  void interruptingTheFittingThreadCancelsTheStageAndEndsTrainingWithAClearError() throws Exception {
    SparkSession spark = TestSpark.session();
    SparkContext sc = spark.sparkContext();
    DatasetSplits data = TestData.fashionMnist(512, 100);
    // Long stages (2 workers, 8 steps an epoch, 400 steps a stage), so the interrupt lands inside one.
    TrainerConfig config = TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, 2).set(TrainerConfig.SCHEDULE, "full").set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.BATCH_SIZE, 32).set(TrainerConfig.EPOCHS, 500).set(TrainerConfig.STEPS_PER_STAGE, 400)
        .set(TrainerConfig.SLOT_WAIT_MS, 30_000).set(TrainerConfig.SYNC_TIMEOUT_MS, 30_000).build();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch firstStageDone = new CountDownLatch(1);
    Thread fitting = new Thread(() -> {
      try {
        new DsSyncTrainer(spark, config).withProgress((m, steps, stages, total) -> firstStageDone.countDown())
            .fit(TrainingData.of(spark, data, 2));
      } catch (Throwable t) {
        failure.set(t);
      }
    }, "fit-to-interrupt");
    fitting.start();
    assertTrue(firstStageDone.await(120, TimeUnit.SECONDS), "stage 1 did not end within 120 s: " + failure.get());
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (sc.statusTracker().getActiveJobIds().length == 0) { // stage 2 starts after a short evaluation
      assertTrue(System.nanoTime() < deadline, "stage 2 did not start within 120 s: " + failure.get());
      Thread.sleep(50);
    }
    Thread.sleep(300);
    fitting.interrupt();
    fitting.join(60_000);
    assertFalse(fitting.isAlive(), "the fit still runs 60 s after its thread was interrupted");
    DsSyncException e = assertInstanceOf(DsSyncException.class, failure.get());
    assertEquals(ErrorKind.INTERRUPTED, e.kind(), e.getMessage() + " " + stackOf(e));
    assertTrue(e.getMessage().startsWith("Training was interrupted during stage 2 (steps 400-799), whose Spark job"
        + " was cancelled: nothing more is trained; the consensus after step 399 is kept"), stackOf(e));
    assertTrue(e.partialResult().isPresent(), "the consensus before the stage is kept");
    while (sc.statusTracker().getActiveJobIds().length > 0) {
      assertTrue(System.nanoTime() < deadline, "the interrupted stage's job was not cancelled");
      Thread.sleep(100);
    }
  }

  private static String stackOf(Throwable t) {
    java.io.StringWriter w = new java.io.StringWriter();
    t.printStackTrace(new java.io.PrintWriter(w));
    return w.toString();
  }
}
