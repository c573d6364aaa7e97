package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.metrics.ProgressListener;
import io.dssync.metrics.StageMetrics;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.Replicas;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import java.io.File;
import java.util.Arrays;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Stochastic weight averaging over workers on local-cluster: the result is the mean of the late stages' consensus
 * models (as the last checkpoint holds it), BatchNorm statistics are recomputed without moving a parameter, and a
 * resumed run keeps the mean.
 */
class SwaFitTest {
  private static SparkSession spark;
  private static DatasetSplits data;

  @BeforeAll
  static void start() {
    spark = TestSpark.session();
    data = TestData.fashionMnist(512, 100);
  }

  /** 2 workers, random pairs, 4 stages of 4 steps; SWA over the stages ending at steps 12 and 16. */
  private static TrainerConfigBuilder config(String model) {
    return TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, 2).set(TrainerConfig.SCHEDULE, "random").set(TrainerConfig.MODEL, model)
        .set(TrainerConfig.BATCH_SIZE, 32).set(TrainerConfig.EPOCHS, 2).set(TrainerConfig.STEPS_PER_STAGE, 4)
        .set(TrainerConfig.SWA_START, 0.5).set(TrainerConfig.SWA_LEARNING_RATE, 0.02)
        .set(TrainerConfig.CHECKPOINT_KEEP, 10)
        .set(TrainerConfig.SLOT_WAIT_MS, 30_000).set(TrainerConfig.SYNC_TIMEOUT_MS, 30_000);
  }

  private static String dir(String name) {
    return new File(System.getProperty("dssync.buildDir", "target"), name + "-" + System.nanoTime()).toURI()
        .toString();
  }

  private static TrainingResult fit(TrainerConfigBuilder config) {
    return new DsSyncTrainer(spark, config.build()).withProgress(ProgressListener.silent())
        .fit(TrainingData.of(spark, data, 2));
  }

  private static Checkpoint newest(String dir) {
    return new CheckpointStore(dir, spark.sparkContext().hadoopConfiguration()).newestValid().checkpoint()
        .orElseThrow();
  }

  @Test
  void theResultIsTheMeanOfTheLateStagesModelsAndAResumedRunKeepsIt() {
    String dir = dir("swa");
    TrainingResult result = fit(config("mlp").set(TrainerConfig.CHECKPOINT_DIR, dir));
    Checkpoint last = newest(dir);
    assertEquals(2, last.fit().swaCount(), "the stages ending at steps 12 and 16");
    assertArrayEquals(last.fit().swaMean(), result.model().state(), "mlp has no buffers: the mean is the model");
    assertFalse(Arrays.equals(last.state(), result.model().state()), "and not the last stage's consensus");
    assertEquals(5, result.history().size(), "4 stages and the evaluation of the mean");
    StageMetrics swaEval = result.history().get(4);
    assertTrue(swaEval.evaluated(), "the mean is evaluated");
    System.out.printf("[swa] mlp: test accuracy %.4f of the SWA mean, %.4f of the last stage's consensus%n",
        swaEval.testAccuracy(), result.history().get(3).testAccuracy());

    String crashed = dir("swa-resume");
    RuntimeException crash = assertThrows(RuntimeException.class, () -> new DsSyncTrainer(spark,
        config("mlp").set(TrainerConfig.CHECKPOINT_DIR, crashed).build()).withProgress((m, steps, stages, total) -> {
          if (m.stage() == 2) {
            throw new IllegalStateException("driver crash after stage 3");
          }
        }).fit(TrainingData.of(spark, data, 2)));
    assertTrue(crash.getMessage().contains("driver crash"), crash.toString());
    assertEquals(1, newest(crashed).fit().swaCount(), "stage 3 was averaged before the crash");
    TrainingResult resumed = fit(config("mlp").set(TrainerConfig.RESUME, crashed));
    assertArrayEquals(result.model().state(), resumed.model().state(), "bit-identical SWA model after resuming");
  }

  @Test
  void batchNormStatisticsAreRecomputedWithoutMovingAParameter() {
    String dir = dir("swa-cnn");
    TrainingResult result = fit(config("cnn").set(TrainerConfig.CHECKPOINT_DIR, dir));
    float[] mean = newest(dir).fit().swaMean();
    float[] model = result.model().state();
    int trainable;
    try (ModelReplica replica = Replicas.create(result.model().spec(), TrainerConfig.builder().build().optimizerSpec(),
        1)) {
      trainable = replica.trainableSize();
    }
    assertTrue(trainable < model.length, "the cnn has BatchNorm buffers");
    assertArrayEquals(Arrays.copyOf(mean, trainable), Arrays.copyOf(model, trainable),
        "a stage at learning rate 0 leaves every parameter as the mean has it");
    assertFalse(Arrays.equals(Arrays.copyOfRange(mean, trainable, mean.length),
        Arrays.copyOfRange(model, trainable, model.length)), "and recomputes the running statistics");
    assertEquals(5, result.history().size(), "4 stages and the statistics stage");
  }

  @Test
  void swaWithEarlyStoppingIsRefusedNamingBoth() {
    io.dssync.errors.DsSyncException e = assertThrows(io.dssync.errors.DsSyncException.class,
        () -> fit(config("mlp").set(TrainerConfig.EARLY_STOP_PATIENCE, 2)));
    assertTrue(e.getMessage().contains("--swa-start") && e.getMessage().contains("--early-stop-patience"),
        e.getMessage());
  }
}
