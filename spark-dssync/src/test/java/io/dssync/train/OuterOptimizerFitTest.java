package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.metrics.ProgressListener;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import java.io.File;
import java.util.Arrays;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The outer optimizer (DiLoCo) through the driver on local-cluster: its momentum buffer crosses stages in the
 * consensus and in checkpoints, so a run resumed after stage 2 ends with exactly the parameters of an
 * uninterrupted one, and the outer step changes what is trained.
 */
class OuterOptimizerFitTest {
  private static SparkSession spark;
  private static DatasetSplits data;

  @BeforeAll
  static void start() {
    spark = TestSpark.session();
    data = TestData.fashionMnist(512, 100);
  }

  /** 2 workers training alone inside a stage (local SGD), averaged at stage ends; MLP, 4 stages of 4 steps. */
  private static TrainerConfigBuilder config() {
    return TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, 2).set(TrainerConfig.SCHEDULE, "local").set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.BATCH_SIZE, 32).set(TrainerConfig.EPOCHS, 2).set(TrainerConfig.STEPS_PER_STAGE, 4)
        .set(TrainerConfig.OUTER_LEARNING_RATE, 0.7).set(TrainerConfig.OUTER_MOMENTUM, 0.9)
        .set(TrainerConfig.SLOT_WAIT_MS, 30_000).set(TrainerConfig.SYNC_TIMEOUT_MS, 30_000);
  }

  private static TrainingResult fit(TrainerConfigBuilder config) {
    return new DsSyncTrainer(spark, config.build()).withProgress(ProgressListener.silent())
        .fit(TrainingData.of(spark, data, 2));
  }

  @Test
  void theOuterMomentumCrossesStagesAndCheckpointsSoAResumedRunIsBitIdentical() {
    TrainingResult uninterrupted = fit(config());
    String dir = new File(System.getProperty("dssync.buildDir", "target"), "outer-" + System.nanoTime()).toURI()
        .toString();
    RuntimeException crash = assertThrows(RuntimeException.class, () -> new DsSyncTrainer(spark,
        config().set(TrainerConfig.CHECKPOINT_DIR, dir).build()).withProgress((m, steps, stages, total) -> {
          if (m.stage() == 1) {
            throw new IllegalStateException("driver crash after stage 2");
          }
        }).fit(TrainingData.of(spark, data, 2)));
    assertTrue(crash.getMessage().contains("driver crash"), crash.toString());
    TrainingResult resumed = fit(config().set(TrainerConfig.RESUME, dir));
    assertEquals(8, resumed.resumedAtStep());
    assertArrayEquals(uninterrupted.model().state(), resumed.model().state(), "bit-identical final parameters");

    TrainingResult plain = fit(config().set(TrainerConfig.OUTER_LEARNING_RATE, 1.0)
        .set(TrainerConfig.OUTER_MOMENTUM, 0.0));
    assertFalse(Arrays.equals(plain.model().state(), uninterrupted.model().state()), "the outer step changes training");
    System.out.printf("[outer] local SGD, 16 steps: test accuracy %.4f with the outer Nesterov step (0.7, 0.9),"
        + " %.4f with plain averages%n", uninterrupted.finalTestAccuracy(), plain.finalTestAccuracy());
  }
}
