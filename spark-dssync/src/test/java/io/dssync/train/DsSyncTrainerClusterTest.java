package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.data.ShardBatcher;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.metrics.ProgressLine;
import io.dssync.metrics.ProgressListener;
import io.dssync.metrics.StageMetrics;
import io.dssync.models.ModelSpec;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.Replicas;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import io.dssync.spark.DriverBlockReports;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The trainer end to end on local-cluster: four executor JVMs, so parameter blocks really cross
 * processes. Accuracy claims use real Fashion-MNIST.
 */
class DsSyncTrainerClusterTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = TestSpark.session();
  }

  private static TrainerConfigBuilder quick() {
    return TrainerConfig.builder()
        .set(TrainerConfig.SLOT_WAIT_MS, 2_000)
        .set(TrainerConfig.SYNC_TIMEOUT_MS, 30_000);
  }

  @Test
  void dsSyncAcrossExecutorJvmsLearnsFashionMnistWithNoDriverBlockReports() {
    DatasetSplits data = TestData.fashionMnist(8_000, 2_000);
    TrainerConfig config = quick()
        .set(TrainerConfig.WORKERS, 4)
        .set(TrainerConfig.SCHEDULE, "random")
        .set(TrainerConfig.GROUP_SIZE, 2)
        .set(TrainerConfig.EPOCHS, 2)
        .set(TrainerConfig.BATCH_SIZE, 32)
        .set(TrainerConfig.STEPS_PER_STAGE, 40)
        .set(TrainerConfig.EVAL_EVERY, 100)
        .build();
    DriverBlockReports reports = new DriverBlockReports();
    spark.sparkContext().addSparkListener(reports);
    List<StageMetrics> seen = new ArrayList<>();
    TrainingResult result;
    try {
      result = new DsSyncTrainer(spark, config)
          .withProgress((m, steps, stages, total) -> seen.add(m))
          .fit(TrainingData.of(spark, data, 4));
    } finally {
      spark.sparkContext().removeSparkListener(reports);
    }
    long totalSteps = result.totalSteps();
    seen.forEach(m -> System.out.println("[cluster e2e] " + ProgressLine.format(m, seen.size(), totalSteps)
        + String.format(" | compute %.1f ms wait %.1f ms transfer %.1f ms", m.computeMsPerStep(), m.waitMsPerStep(),
            m.transferMsPerStep())));
    System.out.printf("[cluster e2e] random g=2: test accuracy %.4f, sync %.2f ms/step (%.1f%%), %d stages%n",
        result.finalTestAccuracy(),
        result.history().stream().mapToDouble(StageMetrics::syncMsPerStep).average().orElse(0),
        100 * result.meanSyncShare(), result.history().size());
    assertTrue(result.finalTestAccuracy() >= 0.75, "test accuracy " + result.finalTestAccuracy());
    assertEquals(0, reports.count(), "block reports to the driver during training");
    assertEquals(result.history().size(), seen.size(), "one progress call per stage");
    assertTrue(result.history().stream().allMatch(m -> m.bytesSentPerStep() > 0), "groups exchanged bytes");
    // Every stage ends in an average of all ranks over the network, which takes time no step counts.
    assertTrue(result.history().stream().allMatch(m -> m.stageEndMs() > 0 && Double.isFinite(m.stageEndMs())),
        "stage-end average timed");
  }

  /** Four workers training an MLP for one epoch of 1,536 examples: 12 steps in three stages of 4. */
  private static TrainerConfigBuilder threeShortStages() {
    return quick()
        .set(TrainerConfig.WORKERS, 4)
        .set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.EPOCHS, 1)
        .set(TrainerConfig.BATCH_SIZE, 32)
        .set(TrainerConfig.STEPS_PER_STAGE, 4);
  }

  @Test
  void fullOverARingAcrossExecutorJvmsTrainsTheDirectModelUpToRounding() {
    DatasetSplits data = TestData.fashionMnist(1_536, 200);
    float[][] states = new float[2][];
    String[] algorithms = {"direct", "ring"};
    for (int a = 0; a < 2; a++) {
      TrainerConfig config = threeShortStages()
          .set(TrainerConfig.SCHEDULE, "full")
          .set(TrainerConfig.ALL_REDUCE, algorithms[a])
          .build();
      states[a] = new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent())
          .fit(TrainingData.of(spark, data, 4)).model().state();
    }
    // The ring ran: its sums round differently from rank order ...
    assertFalse(Arrays.equals(states[0], states[1]), "ring and direct gave the same bits");
    // ... by rounding only: after 12 steps of an MLP every parameter is within 1e-5 of direct's (9e-8 measured).
    float worst = 0;
    for (int i = 0; i < states[0].length; i++) {
      worst = Math.max(worst, Math.abs(states[0][i] - states[1][i]));
    }
    System.out.printf("[cluster ring] full, 12 steps: largest parameter difference ring - direct %.3g%n", worst);
    assertTrue(worst < 1e-5f, "largest difference " + worst);
  }

  @Test
  void autoProbesTheLinksBetweenExecutorJvmsAndPlansFromThem() {
    DatasetSplits data = TestData.fashionMnist(1_536, 200);
    TrainerConfig config = threeShortStages()
        .set(TrainerConfig.SCHEDULE, "auto")
        .set(TrainerConfig.REPLAN_EVERY, 1)
        .build();
    Fit fit = new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent()).newFit();
    TrainingResult result = fit.run(TrainingData.of(spark, data, 4));
    assertEquals(3, result.history().size(), "12 steps in stages of 4, each probing");
    AutoSchedule auto = fit.autoSchedule();
    io.dssync.schedule.LinkMeasurements links = auto.plan().measured();
    assertEquals(4, links.workers());
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 4; j++) {
        if (i != j) {
          double bw = links.bandwidthMBps()[i][j];
          assertTrue(bw > 0 && Double.isFinite(bw), "bandwidth " + j + " -> " + i + ": " + bw);
        }
      }
    }
    double trained = result.history().stream().mapToDouble(StageMetrics::wallSeconds).sum();
    System.out.printf("[cluster auto] plan %s; measured %s; probes %.0f ms of %.1f s of stages (%.2f%%)%n",
        auto.plan().chosen().label(), links.describe(), auto.probesMs(), trained, auto.probesMs() / 10 / trained);
  }

  @Test
  void stagesAfterTheFirstStartFromTheExecutorsCopyOfTheConsensusAndReplicaWithoutFetchingOrBuildingAgain() {
    DatasetSplits data = TestData.fashionMnist(1_536, 200);
    TrainerConfig config = threeShortStages()
        .set(TrainerConfig.SCHEDULE, "random")
        .set(TrainerConfig.GROUP_SIZE, 2)
        .build();
    Fit fit = new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent()).newFit();
    List<Long> builtBefore = replicasBuiltPerExecutor();
    TrainingData training = TrainingData.of(spark, data, 4);
    TrainingResult result = fit.run(training);
    List<Long> builtAfter = replicasBuiltPerExecutor();
    assertNoExecutorHolds(training.inMemory());
    assertEquals(3, result.history().size(), "12 steps in stages of 4");
    // Stage 1 starts from the driver's initial model; later stages from what the executors averaged.
    assertEquals(List.of(4, 0, 0), fit.startFetches());
    // One task per executor JVM and stage: each builds a replica in stage 1 and reuses it after.
    long built = 0;
    for (int e = 0; e < builtAfter.size(); e++) {
      built += builtAfter.get(e) - builtBefore.get(e);
    }
    assertEquals(4, built, "replicas built in 3 stages of 4 workers (12 without reuse): " + builtBefore + " -> "
        + builtAfter);
  }

  @Test
  void aTrainerFitsAgainFromScratchWithNothingLeftOfItsLastFit() {
    TrainerConfig config = threeShortStages()
        .set(TrainerConfig.SCHEDULE, "random")
        .set(TrainerConfig.GROUP_SIZE, 2)
        .build();
    DsSyncTrainer trainer = new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent());
    TrainingData training = TrainingData.of(spark, TestData.fashionMnist(1_536, 200), 4);
    Fit first = trainer.newFit();
    float[] once = first.run(training).model().state();
    Fit second = trainer.newFit();
    float[] again = second.run(training).model().state();
    assertArrayEquals(once, again, "the same settings and seed train the same model");
    // The executors still hold the first fit's last consensus: the second fit must not start from it.
    assertEquals(List.of(4, 0, 0), second.startFetches());
  }

  @Test
  void skippingBadRecordsAlsoLeavesTheExecutorsNoCopyOfTheTrainingSet() {
    TrainingData training = TrainingData.of(spark, TestData.fashionMnist(1_536, 200), 4);
    TrainerConfig config = threeShortStages()
        .set(TrainerConfig.SCHEDULE, "random")
        .set(TrainerConfig.GROUP_SIZE, 2)
        .set(TrainerConfig.BAD_RECORDS, "skip")
        .build();
    TrainingResult result = new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent()).fit(training);
    assertEquals(3, result.history().size(), "the rows' path trained the same 12 steps");
    assertNoExecutorHolds(training.inMemory());
  }

  /** Asks every executor JVM whether its block manager still holds {@code shared}'s value. */
  private static void assertNoExecutorHolds(org.apache.spark.broadcast.Broadcast<?> shared) {
    long id = shared.id();
    List<String> held = TestSpark.runBarrier(TestSpark.EXECUTORS, ctx -> org.apache.spark.SparkEnv.get().executorId()
        + " holds " + org.apache.spark.SparkEnv.get().blockManager()
            .getStatus(new org.apache.spark.storage.BroadcastBlockId(id, "")).isDefined());
    assertEquals(TestSpark.EXECUTORS, held.stream().filter(h -> h.endsWith(" holds false")).count(), held.toString());
  }

  /** How many replicas each executor JVM has built for stages so far, by executor id. */
  private static List<Long> replicasBuiltPerExecutor() {
    java.util.Map<String, Long> byExecutor = new java.util.TreeMap<>();
    for (String sample : TestSpark.runBarrier(TestSpark.EXECUTORS,
        ctx -> org.apache.spark.SparkEnv.get().executorId() + "=" + IdleReplicas.created())) {
      String[] kv = sample.split("=");
      byExecutor.put(kv[0], Long.parseLong(kv[1]));
    }
    assertEquals(TestSpark.EXECUTORS, byExecutor.size(), "one sample per executor: " + byExecutor);
    return new ArrayList<>(byExecutor.values());
  }

  @Test
  void oneWorkerOnSparkEqualsSingleProcessTrainingAcrossStages() {
    DatasetSplits data = TestData.fashionMnist(200, 50);
    TrainerConfig config = quick()
        .set(TrainerConfig.WORKERS, 1)
        .set(TrainerConfig.SCHEDULE, "full")
        .set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.OPTIMIZER, "adam")
        .set(TrainerConfig.LEARNING_RATE, 0.001)
        .set(TrainerConfig.EPOCHS, 1)
        .set(TrainerConfig.BATCH_SIZE, 32)
        .set(TrainerConfig.STEPS_PER_STAGE, 2)
        .build();
    TrainingResult result = new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent())
        .fit(TrainingData.of(spark, data, 3));
    assertEquals(6, result.totalSteps());
    assertEquals(3, result.history().size(), "three stages of two steps");

    ModelSpec spec = new ModelSpec("mlp", 1, 28, 28, 10, config.get(TrainerConfig.SEED));
    LearningRateSchedule lr = config.learningRateSchedule(result.totalSteps());
    float[] expected;
    try (ModelReplica single = Replicas.create(spec, config.optimizerSpec(), 1)) {
      ShardBatcher batcher = new ShardBatcher(data.train(), 32, config.get(TrainerConfig.SEED), 0);
      float[] f = new float[32 * 784];
      float[] l = new float[32];
      for (long step = 0; step < result.totalSteps(); step++) {
        batcher.fill(step, f, l);
        single.trainStep(f, l, 32, lr.at(step));
      }
      expected = new float[single.stateSize()];
      single.readState(expected);
    }
    assertArrayEquals(expected, result.model().state());
  }

  @Test
  void moreWorkersThanTaskSlotsIsRejectedBeforeAnyStageRuns() {
    TrainerConfig config = quick().set(TrainerConfig.WORKERS, TestSpark.executorCount() + 1).build();
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> new DsSyncTrainer(spark, config).fit(TrainingData.of(spark, TestData.fashionMnist(100, 10), 2)));
    assertEquals(ErrorKind.CONFIG, e.kind());
    assertTrue(e.getMessage().contains("--workers = " + (TestSpark.executorCount() + 1)), e.getMessage());
    assertTrue(e.getMessage().contains("offers " + TestSpark.executorCount()), e.getMessage());
  }

  @Test
  void featuresOfTheWrongLengthAreReportedWithTheExpectedLength() {
    Dataset<Row> frame = frame(List.of(RowFactory.create(Vectors.dense(new double[10]), 1.0),
        RowFactory.create(Vectors.dense(new double[10]), 2.0)));
    DsSyncException e = assertThrows(DsSyncException.class, () -> fitTiny(frame, 2));
    assertEquals(ErrorKind.DATA, e.kind());
    assertTrue(e.getMessage().contains("784"), e.getMessage());
  }

  @Test
  void nonFiniteFeaturesAreReported() {
    double[] bad = new double[784];
    bad[5] = Double.NaN;
    Dataset<Row> frame = frame(List.of(RowFactory.create(Vectors.dense(bad), 1.0),
        RowFactory.create(Vectors.dense(new double[784]), 2.0)));
    DsSyncException e = assertThrows(DsSyncException.class, () -> fitTiny(frame, 2));
    assertEquals(ErrorKind.DATA, e.kind());
    assertTrue(e.getMessage().toLowerCase().contains("nan") || e.getMessage().contains("finite"), e.getMessage());
  }

  @Test
  void labelsOutOfRangeAreReported() {
    Dataset<Row> frame = frame(List.of(RowFactory.create(Vectors.dense(new double[784]), 10.0),
        RowFactory.create(Vectors.dense(new double[784]), 2.0)));
    DsSyncException e = assertThrows(DsSyncException.class, () -> fitTiny(frame, 2));
    assertEquals(ErrorKind.DATA, e.kind());
    assertTrue(e.getMessage().contains("10"), e.getMessage());
  }

  @Test
  void fewerExamplesThanWorkersIsReportedInsteadOfTrainingOnEmptyShards() {
    Dataset<Row> frame = frame(List.of(RowFactory.create(Vectors.dense(new double[784]), 1.0),
        RowFactory.create(Vectors.dense(new double[784]), 2.0)));
    DsSyncException e = assertThrows(DsSyncException.class, () -> fitTiny(frame, 4));
    assertEquals(ErrorKind.DATA, e.kind());
    assertTrue(e.getMessage().contains("fewer than the 4 workers"), e.getMessage());
  }

  @Test
  void missingColumnsAreNamed() {
    Dataset<Row> frame = frame(List.of(RowFactory.create(Vectors.dense(new double[784]), 1.0)))
        .withColumnRenamed("label", "target");
    DsSyncException e = assertThrows(DsSyncException.class, () -> fitTiny(frame, 1));
    assertTrue(e.getMessage().contains("label"), e.getMessage());
    assertTrue(e.getMessage().contains("target"), e.getMessage());
  }

  @Test
  void aNonFiniteLossStopsTrainingNamingTheStepAndKeepsTheLastConsensusModel() {
    DatasetSplits data = TestData.fashionMnist(512, 50);
    TrainerConfig config = quick()
        .set(TrainerConfig.WORKERS, 2)
        .set(TrainerConfig.SCHEDULE, "full")
        .set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.LEARNING_RATE, 1e30)
        .set(TrainerConfig.LR_SCHEDULE, "constant")
        .set(TrainerConfig.BATCH_SIZE, 32)
        .set(TrainerConfig.STEPS_PER_STAGE, 50)
        .build();
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent())
            .fit(TrainingData.of(spark, data, 2)));
    assertEquals(ErrorKind.DIVERGED, e.kind(), e.getMessage());
    assertTrue(e.getMessage().matches("(?s).*at step \\d+.*"), e.getMessage());
    TrainingResult partial = (TrainingResult) e.partialResult().orElseThrow();
    for (float v : partial.model().state()) {
      assertTrue(Float.isFinite(v), "the kept consensus model is the finite one from before the stage");
    }
  }

  private static void fitTiny(Dataset<Row> frame, int workers) {
    TrainerConfig config = quick().set(TrainerConfig.WORKERS, workers).set(TrainerConfig.SCHEDULE, "full")
        .set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.BATCH_SIZE, 1).set(TrainerConfig.EPOCHS, 1).build();
    new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent())
        .fit(new TrainingData(frame, "features", "label", 1, 28, 28, 10, null));
  }

  private static Dataset<Row> frame(List<Row> rows) {
    StructType schema = new StructType()
        .add("features", new org.apache.spark.ml.linalg.VectorUDT(), true)
        .add("label", DataTypes.DoubleType, true);
    return spark.createDataFrame(rows, schema);
  }

}
