package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.metrics.ProgressListener;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Early stopping and stage callbacks on local-cluster (executors in their own JVMs): a fit stops where patience
 * runs out and returns the best stage's model, a resumed run keeps the patience count, a callback stops a fit or
 * sets the learning rate, and a callback that throws ends the fit with the checkpoints intact.
 */
class FitStoppingTest {
  private static SparkSession spark;
  private static DatasetSplits data;
  /** The consensus after the first stage, from a fit a callback stopped there. */
  private static TrainingResult firstStageOnly;

  @BeforeAll
  static void start() {
    spark = TestSpark.session();
    data = TestData.fashionMnist(512, 100);
    firstStageOnly = fit(config(4), control -> control.requestStop("one stage is enough"));
  }

  /**
   * 2 workers, MLP, 8 steps per epoch in stages of 4, a constant learning rate: the first stages compute the same
   * whatever the epoch count.
   */
  private static TrainerConfigBuilder config(int epochs) {
    return TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, 2).set(TrainerConfig.SCHEDULE, "full").set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.BATCH_SIZE, 32).set(TrainerConfig.EPOCHS, epochs).set(TrainerConfig.STEPS_PER_STAGE, 4)
        .set(TrainerConfig.LR_SCHEDULE, "constant").set(TrainerConfig.LEARNING_RATE, 0.05)
        .set(TrainerConfig.SLOT_WAIT_MS, 30_000).set(TrainerConfig.SYNC_TIMEOUT_MS, 30_000);
  }

  private interface Control {
    void apply(FitControl control);
  }

  private static TrainingResult fit(TrainerConfigBuilder config, Control control) {
    return new DsSyncTrainer(spark, config.build()).withProgress(ProgressListener.silent())
        .withCallback((metrics, c) -> control.apply(c)).fit(TrainingData.of(spark, data, 2));
  }

  private static String checkpointDir(String name) {
    return new File(System.getProperty("dssync.buildDir", "target"), name + "-" + System.nanoTime()).toURI()
        .toString();
  }

  @Test
  void aCallbackStopsTheFitAfterTheStageItAsked() {
    assertEquals(1, firstStageOnly.history().size());
    assertTrue(firstStageOnly.stoppedEarly());
    assertEquals(0, firstStageOnly.stop().afterStage());
    assertEquals("one stage is enough", firstStageOnly.stop().reason());
  }

  @Test
  void aPlateauStopsWithinPatiencePlusOneStagesOfTheBestAndReturnsTheBestModel() {
    // No evaluation can beat the first by a whole unit of accuracy: the first stage stays the best.
    TrainingResult result = new DsSyncTrainer(spark, config(4).set(TrainerConfig.EARLY_STOP_PATIENCE, 2)
        .set(TrainerConfig.EARLY_STOP_MIN_DELTA, 1.0).build()).withProgress(ProgressListener.silent())
        .fit(TrainingData.of(spark, data, 2));
    assertNotNull(result.stop(), "8 planned stages, stopped early");
    assertEquals(0, result.stop().modelStage());
    assertEquals(2, result.stop().afterStage(), "patience 2 after the best stage 1");
    assertEquals(3, result.history().size());
    assertEquals(12, result.stepsReached(), "3 stages of 4 steps of the 32 planned");
    assertTrue(result.stop().reason().contains("accuracy"), result.stop().reason());
    assertArrayEquals(firstStageOnly.model().state(), result.model().state(), "the best (first) stage's model");
    assertEquals(result.history().get(0).testAccuracy(), result.finalTestAccuracy(),
        "the final accuracy is the returned model's, not the last stage's");
    System.out.printf("[early-stop] stopped after stage %d of 8, model of stage %d: %s%n",
        result.stop().afterStage() + 1, result.stop().modelStage() + 1, result.stop().reason());
  }

  @Test
  void aResumedRunKeepsThePatienceCountAndACallbackThatThrowsKeepsTheCheckpoints() {
    String dir = checkpointDir("early-stop");
    TrainerConfigBuilder config = config(4).set(TrainerConfig.EARLY_STOP_PATIENCE, 3)
        .set(TrainerConfig.EARLY_STOP_MIN_DELTA, 1.0).set(TrainerConfig.CHECKPOINT_KEEP, 10);
    DsSyncException crash = assertThrows(DsSyncException.class,
        () -> fit(config.set(TrainerConfig.CHECKPOINT_DIR, dir), control -> {
          if (control.stage() == 1) {
            throw new IllegalStateException("callback bug");
          }
        }));
    assertEquals(ErrorKind.CALLBACK, crash.kind());
    assertTrue(crash.getMessage().contains("after stage 2") && crash.getMessage().contains("callback bug")
        && crash.getMessage().contains("--resume"), crash.getMessage());
    assertTrue(crash.partialResult().isPresent(), "the consensus of stage 2 is kept");
    assertEquals(2, new CheckpointStore(dir, spark.sparkContext().hadoopConfiguration()).checkpointsNewestFirst()
        .size(), "both finished stages' checkpoints are intact");

    TrainingResult resumed = new DsSyncTrainer(spark, config.set(TrainerConfig.CHECKPOINT_DIR, "")
        .set(TrainerConfig.RESUME, dir).build()).withProgress(ProgressListener.silent())
        .fit(TrainingData.of(spark, data, 2));
    assertEquals(8, resumed.resumedAtStep());
    assertNotNull(resumed.stop());
    assertEquals(3, resumed.stop().afterStage(), "one strike was counted before the restart, two after it");
    assertEquals(0, resumed.stop().modelStage());
    assertArrayEquals(firstStageOnly.model().state(), resumed.model().state(), "the best stage's model");
  }

  @Test
  void aLearningRateSetByACallbackReachesTheWorkers() {
    List<Double> seen = new ArrayList<>();
    TrainingResult frozen = fit(config(2), control -> {
      seen.add(control.learningRate());
      control.setLearningRate(1e-30);
    });
    assertEquals(4, frozen.history().size());
    double set = (float) 1e-30; // workers compute in float
    assertEquals(List.of((double) 0.05f, set, set, set), seen);
    float[] first = firstStageOnly.model().state();
    assertArrayEquals(first, frozen.model().state(), 1e-6f, "no step after stage 1 moved the model");
    TrainingResult plain = new DsSyncTrainer(spark, config(2).build()).withProgress(ProgressListener.silent())
        .fit(TrainingData.of(spark, data, 2));
    assertFalse(maxDifference(first, plain.model().state()) < 1e-3,
        "without the callback three more stages move the model");
  }

  @Test
  void earlyStoppingWithoutValidationDataIsRefusedBeforeAnyStage() {
    TrainingData withTest = TrainingData.of(spark, data, 2);
    TrainingData noTest = new TrainingData(withTest.frame(), "features", "label", withTest.channels(),
        withTest.height(), withTest.width(), withTest.numClasses(), null, 0, withTest.inMemory(), null, 1);
    DsSyncException e = assertThrows(DsSyncException.class, () -> new DsSyncTrainer(spark,
        config(2).set(TrainerConfig.EARLY_STOP_PATIENCE, 2).build()).withProgress((m, s, n, t) -> {
          throw new AssertionError("no stage may run");
        }).fit(noTest));
    assertEquals(ErrorKind.CONFIG, e.kind());
    assertTrue(e.getMessage().contains("--early-stop-patience") && e.getMessage().contains("--validation-fraction"),
        e.getMessage());
  }

  private static double maxDifference(float[] a, float[] b) {
    double max = 0;
    for (int i = 0; i < a.length; i++) {
      max = Math.max(max, Math.abs(a[i] - b[i]));
    }
    return max;
  }
}
