package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Where the driver does not run the replicas (here the shared local-cluster's executor JVMs), each
 * rank of the first stage checks its own host's memory for the ranks there, before any step: a batch
 * too large fails with the sizes and a batch that fits, not with executors killed by the kernel.
 */
class TooLargeBatchOnExecutorsTest {
  private static final String MODEL = TooLargeBatchTest.MODEL;

  @Test
  void ranksOfTheFirstStageRefuseABatchWhoseStepsExceedTheirHostsMemory() {
    // Both ranks run on this machine: their forward tensors alone a quarter more than its memory now.
    long batch = TooLargeBatchTest.batchOfTwoReplicasOverMemory();
    SparkSession spark = TestSpark.session();
    DatasetSplits data = TestData.fashionMnist();
    assumeTrue(2 * batch <= data.train().size(), "this host has memory for " + batch + " examples a step");
    TrainerConfig config = TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, 2).set(TrainerConfig.MODEL, MODEL).set(TrainerConfig.BATCH_SIZE, (int) batch)
        .set(TrainerConfig.EPOCHS, 1).set(TrainerConfig.SLOT_WAIT_MS, 30_000).build();
    DatasetSplits subset = new DatasetSplits(data.train().head((int) (2 * batch)), data.test().head(50),
        data.channels(), data.height(), data.width(), data.name());
    AtomicInteger stages = new AtomicInteger();

    DsSyncException e = assertThrows(DsSyncException.class, () -> new DsSyncTrainer(spark, config)
        .withProgress((m, steps, done, total) -> stages.incrementAndGet()).fit(TrainingData.of(spark, subset, 2)));

    assertEquals(ErrorKind.CONFIG, e.kind(), e.getMessage());
    assertTrue(e.getMessage().startsWith("Invalid --batch-size = " + batch + ": a training step of model " + MODEL),
        e.getMessage());
    assertTrue(e.getMessage().contains("for the 2 replicas on executor host "), e.getMessage());
    assertTrue(e.getMessage().matches("(?s).*Use --batch-size \\d+ or less.*"), e.getMessage());
    assertEquals(0, stages.get(), "no stage trained");
  }
}
