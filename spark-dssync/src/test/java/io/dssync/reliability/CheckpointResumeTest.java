package io.dssync.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.metrics.ProgressListener;
import io.dssync.testing.MiniHdfs;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import io.dssync.train.CheckpointStore;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainerConfigBuilder;
import io.dssync.train.TrainingData;
import io.dssync.train.TrainingResult;
import java.io.File;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A run stopped after stage 2 and resumed from its checkpoint ends with exactly the parameters of
 * an uninterrupted run (same seed), on file:// and on a real HDFS (MiniDFSCluster).
 */
class CheckpointResumeTest {
  private static final int STOP_AFTER_STAGE = 2;
  private static SparkSession spark;
  private static MiniHdfs hdfs;
  private static DatasetSplits data;
  private static TrainingResult uninterrupted;

  @BeforeAll
  static void start() throws Exception {
    spark = TestSpark.session();
    hdfs = MiniHdfs.start();
    data = TestData.fashionMnist(512, 100);
    uninterrupted = new DsSyncTrainer(spark, config().build()).withProgress(ProgressListener.silent())
        .fit(TrainingData.of(spark, data, 2));
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  /** 2 workers, MLP, 16 steps in 4 stages of 4. */
  private static TrainerConfigBuilder config() {
    return TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, 2).set(TrainerConfig.SCHEDULE, "full").set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.BATCH_SIZE, 32).set(TrainerConfig.EPOCHS, 2).set(TrainerConfig.STEPS_PER_STAGE, 4)
        .set(TrainerConfig.OPTIMIZER, "adam").set(TrainerConfig.LEARNING_RATE, 0.001)
        .set(TrainerConfig.SLOT_WAIT_MS, 30_000).set(TrainerConfig.SYNC_TIMEOUT_MS, 30_000);
  }

  @Test
  void resumingFromALocalFileCheckpointGivesBitIdenticalParameters() {
    String dir = new File(System.getProperty("dssync.buildDir", "target"), "ckpt-" + System.nanoTime())
        .toURI().toString();
    assertResumeMatches(dir);
  }

  @Test
  void resumingFromAnHdfsCheckpointGivesBitIdenticalParameters() {
    assertResumeMatches(hdfs.uri("runs/ckpt-" + System.nanoTime()));
  }

  @Test
  void resumingWithADifferentSeedIsRejectedNamingTheSetting() {
    String dir = hdfs.uri("runs/seed-" + System.nanoTime());
    interruptedRun(dir);
    TrainerConfig other = config().set(TrainerConfig.RESUME, dir).set(TrainerConfig.SEED, 7L).build();
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> new DsSyncTrainer(spark, other).withProgress(ProgressListener.silent())
            .fit(TrainingData.of(spark, data, 2)));
    assertEquals(ErrorKind.CONFIG, e.kind());
    assertTrue(e.getMessage().contains("seed = 42") && e.getMessage().contains("7"), e.getMessage());
  }

  private void assertResumeMatches(String dir) {
    interruptedRun(dir);
    List<org.apache.hadoop.fs.Path> written = new CheckpointStore(dir, spark.sparkContext().hadoopConfiguration())
        .checkpointsNewestFirst();
    assertEquals(STOP_AFTER_STAGE, written.size(), "one checkpoint per finished stage: " + written);
    DsSyncTrainer resumed = new DsSyncTrainer(spark, config().set(TrainerConfig.RESUME, dir).build())
        .withProgress(ProgressListener.silent());
    TrainingResult result = resumed.fit(TrainingData.of(spark, data, 2));
    assertEquals(8, result.resumedAtStep(), "continues after stage " + STOP_AFTER_STAGE);
    assertEquals(2, result.history().size(), "only the remaining stages run");
    assertArrayEquals(uninterrupted.model().state(), result.model().state(), "bit-identical final parameters");
    System.out.printf("[resume] %s: resumed at step 8, final test accuracy %.4f (uninterrupted %.4f)%n", dir,
        result.finalTestAccuracy(), uninterrupted.finalTestAccuracy());
  }

  /** Trains with checkpoints into {@code dir} and dies (as a crashing driver would) after stage 2. */
  private static void interruptedRun(String dir) {
    TrainerConfig config = config().set(TrainerConfig.CHECKPOINT_DIR, dir).build();
    RuntimeException crash = assertThrows(RuntimeException.class, () -> new DsSyncTrainer(spark, config)
        .withProgress((m, steps, stages, total) -> {
          if (m.stage() + 1 == STOP_AFTER_STAGE) { // stage() counts from 0
            throw new IllegalStateException("driver crash after stage " + STOP_AFTER_STAGE);
          }
        }).fit(TrainingData.of(spark, data, 2)));
    assertTrue(crash.getMessage().contains("driver crash"), crash.toString());
  }
}
