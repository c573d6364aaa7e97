package io.dssync.ml;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.monotonically_increasing_id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dssync.errors.DsSyncException;
import io.dssync.metrics.ProgressListener;
import io.dssync.metrics.StageMetrics;
import io.dssync.testing.TestSpark;
import io.dssync.testing.TorchScripts;
import io.dssync.train.TrainerConfig;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.evaluation.RegressionEvaluator;
import org.apache.spark.ml.feature.StandardScaler;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DsSyncRegressor in a Spark ML Pipeline on a real regression dataset, scikit-learn's diabetes data (442 rows,
 * 10 features) as Debian's python3-sklearn ships it, written to CSV by python/examples/diabetes_to_files.py at
 * test time (nothing is committed; the target is standardized, so RMSEs are in standard deviations of it).
 * Training and prediction run on the executor JVMs of the shared local-cluster session.
 */
class DsSyncRegressorTest {
  private static final int WORKERS = 4;
  private static final int BATCH = 8;
  private static final int EPOCHS = 20;
  /**
   * Adam at a small constant rate: on 354 rows the mlp (256 and 128 hidden units) overfits after a few epochs, and
   * at 0.001 the test RMSE of either training still swung by 0.03-0.09 between consecutive stages, while at 0.0003
   * both had levelled off by epoch 12 (0.850-0.878 on the test rows, measured per 2 epochs for N=1 and N=4).
   */
  private static final double LR = 0.0003;
  private static final double TOLERANCE = 0.02;
  /** Share of the RMSE of always predicting the training mean that a network which learned the data stays under. */
  private static final double LEARNED = 0.95;
  private static final String[] FEATURES = {"age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"};

  @TempDir
  static Path dir;
  private static SparkSession spark;
  private static Dataset<Row> train;
  private static Dataset<Row> test;

  @BeforeAll
  static void data() {
    requireSklearn();
    String out = TorchScripts.example("diabetes_to_files.py", List.of("--out-dir", dir.toString()), 300);
    assertTrue(out.contains("\"train\": 354") && out.contains("\"test\": 88"), out);
    spark = TestSpark.session();
    train = csv("diabetes-train.csv").repartition(WORKERS).cache();
    test = csv("diabetes-test.csv").cache();
    assertEquals(354, train.count());
    assertEquals(88, test.count());
  }

  /** Skips unless /usr/bin/python3 imports sklearn; under CI (which installs python3-sklearn) its absence fails. */
  private static void requireSklearn() {
    boolean ok = TorchScripts.run(List.of(TorchScripts.PYTHON, "-c", "import sklearn"), 120, false).exit() == 0;
    if (!ok && System.getenv("CI") != null) {
      fail(TorchScripts.PYTHON + " cannot import sklearn: .ci/run installs python3-sklearn");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(ok,
        TorchScripts.PYTHON + " cannot import sklearn (apt-get install python3-sklearn)");
  }

  private static Dataset<Row> csv(String name) {
    return spark.read().option("header", "true").option("inferSchema", "true")
        .csv(dir.resolve(name).toString());
  }

  private static String freshPath(String name) {
    return new File(System.getProperty("dssync.buildDir"), "ml-test/" + name + "-" + UUID.randomUUID())
        .getAbsolutePath();
  }

  private static DsSyncRegressor regressor(int workers, int batch) {
    return new DsSyncRegressor()
        .setFeaturesCol("scaled")
        .setLabelCol("target")
        .setWorkers(workers)
        .setSchedule("random")
        .setGroupSize(Math.min(2, workers))
        .setSetting(TrainerConfig.OPTIMIZER, "adam")
        .setSetting(TrainerConfig.LR_SCHEDULE, "constant")
        .setLearningRate(LR)
        .setEpochs(EPOCHS)
        .setBatchSize(batch)
        // One stage for the whole fit: the driver evaluates once, at the end.
        .setStepsPerStage(1_000)
        .setSeed(42)
        .setSetting(TrainerConfig.SLOT_WAIT_MS, 10_000)
        .setProgress(ProgressListener.silent());
  }

  private static Pipeline pipeline(DsSyncRegressor regressor) {
    return new Pipeline().setStages(new PipelineStage[] {
        new VectorAssembler().setInputCols(FEATURES).setOutputCol("features"),
        new StandardScaler().setInputCol("features").setOutputCol("scaled").setWithMean(true),
        regressor});
  }

  private static double rmse(Dataset<Row> predicted) {
    return new RegressionEvaluator().setLabelCol("target").setPredictionCol("prediction").setMetricName("rmse")
        .evaluate(predicted);
  }

  /**
   * The reference is the same DsSyncRegressor with one worker and the four workers' global batch: by the engine's
   * invariant one worker is plain single-process training, and this way the reference shares everything else
   * (the CSV rows, the scaler, the built-in mlp and its seeded initial weights, the optimizer, Spark's evaluator),
   * so the 2% measures only what distributing the training changes. train_reference.py on an exported
   * RegressionMlp would be a different network, read other files and compute its RMSE in other code.
   */
  @Test
  void pipelineOnDiabetesSavesLoadsAndComesWithinTwoPercentOfOneProcess() throws Exception {
    PipelineModel fitted = pipeline(regressor(WORKERS, BATCH)).fit(train);
    String path = freshPath("regression-pipeline");
    fitted.write().overwrite().save(path);
    PipelineModel loaded = PipelineModel.load(path);
    Dataset<Row> predicted = loaded.transform(test).cache();
    assertEquals(88, predicted.count());
    double ours = rmse(predicted);
    assertEquals(ours, rmse(fitted.transform(test)), 0.0, "the loaded pipeline predicts otherwise");

    double single = rmse(pipeline(regressor(1, WORKERS * BATCH)).fit(train).transform(test));
    DsSyncRegressionModel model = (DsSyncRegressionModel) loaded.stages()[2];
    String pair = String.format(Locale.ROOT, "test RMSE DS-Sync %.4f (N=%d random g=2, b=%d, %d steps) vs one"
        + " process %.4f (N=1, b=%d), %d epochs, adam lr %s, mlp; relative difference %.2f%%", ours, WORKERS, BATCH,
        model.summary().totalSteps(), single, WORKERS * BATCH, EPOCHS, LR, 100 * Math.abs(ours - single) / single);
    System.err.println("[DsSyncRegressorTest] " + pair);
    double baseline = meanPredictorRmse();
    System.err.println("[DsSyncRegressorTest] predicting the training mean: test RMSE " + baseline);
    assertTrue(single < LEARNED * baseline, "one process did not learn: " + pair);
    assertTrue(ours < LEARNED * baseline, "DS-Sync did not learn: " + pair);
    assertTrue(Math.abs(ours - single) <= TOLERANCE * single, pair);
  }

  /** RMSE on the test rows of the constant prediction a regression without features would make. */
  private static double meanPredictorRmse() {
    double mean = train.agg(org.apache.spark.sql.functions.avg("target")).head().getDouble(0);
    return Math.sqrt(test.agg(org.apache.spark.sql.functions.avg(col("target").minus(mean).multiply(
        col("target").minus(mean)))).head().getDouble(0));
  }

  /** A multi-output regression (the target and its negation, an ml Vector label) saved and loaded alone. */
  @Test
  void saveAndLoadGiveIdenticalPredictionsForAVectorLabel() throws Exception {
    Dataset<Row> two = new VectorAssembler().setInputCols(new String[] {"target", "negated"}).setOutputCol("targets")
        .transform(train.withColumn("negated", col("target").multiply(-1)));
    Dataset<Row> assembled = new VectorAssembler().setInputCols(FEATURES).setOutputCol("scaled").transform(two);
    DsSyncRegressionModel model = regressor(WORKERS, BATCH).setLabelCol("targets").setEpochs(2).fit(assembled);
    assertEquals(2, model.numOutputs());
    String path = freshPath("regression-model");
    model.write().overwrite().save(path);
    DsSyncRegressionModel loaded = DsSyncRegressionModel.load(path);
    assertEquals(model.uid(), loaded.uid());
    assertEquals("targets", loaded.getOrDefault(loaded.getParam("labelCol")));

    // Rows fixed on the driver: a limit over the repartitioned frame may pick other rows on each evaluation.
    Dataset<Row> input = spark.createDataFrame(assembled.limit(20).collectAsList(), assembled.schema());
    List<Row> before = model.transform(input).select("scaled", "prediction").collectAsList();
    List<Row> after = loaded.transform(input).select("prediction").collectAsList();
    for (int i = 0; i < before.size(); i++) {
      Vector p = (Vector) before.get(i).get(1);
      assertEquals(2, p.size());
      assertEquals(p, after.get(i).get(0), "row " + i);
      // One row is a batch of 1 to libtorch, whose sums may round otherwise than in a batch of 20.
      Vector one = loaded.predict((Vector) before.get(i).get(0));
      for (int j = 0; j < 2; j++) {
        assertEquals(p.apply(j), one.apply(j), 1e-5, "predict(Vector) of row " + i);
      }
    }
    assertTrue(Arrays.toString(loaded.summary().lossHistory()).equals(Arrays.toString(model.summary().lossHistory())));

    // Each class's reader takes its own files only, and names what it found.
    DsSyncException asClassifier = assertThrows(DsSyncException.class, () -> DsSyncClassificationModel.load(path));
    assertTrue(asClassifier.getMessage().contains("holds a io.dssync.ml.DsSyncRegressionModel, not a"
        + " io.dssync.ml.DsSyncClassificationModel"), asClassifier.getMessage());
    Path metadata = Path.of(path, "metadata", "part-00000");
    // Hadoop's local file system checks the file against its .crc sibling; the edit would fail that check first.
    Files.deleteIfExists(Path.of(path, "metadata", ".part-00000.crc"));
    Files.writeString(metadata, Files.readString(metadata, StandardCharsets.UTF_8)
        .replace("io.dssync.ml.DsSyncRegressionModel", "com.example.SomeOtherModel"), StandardCharsets.UTF_8);
    DsSyncException other = assertThrows(DsSyncException.class, () -> DsSyncRegressionModel.load(path));
    assertTrue(other.getMessage().contains("holds a com.example.SomeOtherModel, not a"
        + " io.dssync.ml.DsSyncRegressionModel"), other.getMessage());
  }

  @Test
  void aClassLossIsRefusedBeforeAnyStageRuns() {
    DsSyncException e = refusedBeforeAnyJob(pipeline(regressor(WORKERS, BATCH).setLoss("cross-entropy")), train);
    assertEquals("Invalid loss = cross-entropy: DsSyncRegressor trains on real-valued labels, so the loss must be"
        + " mse, l1 or huber. Set loss to mse, l1 or huber, or use DsSyncClassifier for class labels.", e.getMessage());
  }

  /**
   * Spark's configuration ({@code --conf spark.dssync.*}, or {@code spark.conf.set} in a notebook) gives the
   * settings whose params the estimator leaves unset, over the params' defaults; a param set wins. The fit reads
   * the session of its input, and a bad value or an unknown key there is refused before any job.
   */
  @Test
  void theSessionsSparkConfSetsWhatNoParamSetsAndAParamSetWins() {
    try {
      spark.conf().set("spark.dssync.loss", "l1");
      spark.conf().set("spark.dssync.epochs", "9");
      TrainerConfig config = regressor(WORKERS, BATCH).trainerConfig(spark);
      assertEquals("l1", config.get(TrainerConfig.LOSS), "the conf over the regressor's default (mse)");
      assertEquals(EPOCHS, config.get(TrainerConfig.EPOCHS), "a param set over the conf");
      assertEquals(TrainerConfig.MOMENTUM.defaultValue(), config.get(TrainerConfig.MOMENTUM), "neither: the default");

      spark.conf().set("spark.dssync.loss", "cross-entropy");
      assertTrue(refusedBeforeAnyJob(pipeline(regressor(WORKERS, BATCH)), train).getMessage()
          .startsWith("Invalid loss = cross-entropy: DsSyncRegressor trains on real-valued labels"));
      spark.conf().unset("spark.dssync.loss");
      spark.conf().set("spark.dssync.epoch", "1");
      assertEquals("Unknown Spark conf key spark.dssync.epoch (did you mean spark.dssync.epochs?): no setting of"
          + " spark-dssync has that name. Correct or remove it; docs/configuration.md lists every key.",
          refusedBeforeAnyJob(pipeline(regressor(WORKERS, BATCH)), train).getMessage());
    } finally {
      for (String key : new String[] {"spark.dssync.loss", "spark.dssync.epochs", "spark.dssync.epoch"}) {
        spark.conf().unset(key);
      }
    }
    assertEquals("mse", regressor(WORKERS, BATCH).trainerConfig(spark).get(TrainerConfig.LOSS));
  }

  @Test
  void aStringLabelColumnIsRefusedBeforeAnyStageRuns() {
    Dataset<Row> strings = train.withColumn("target", col("target").cast("string"));
    DsSyncException e = refusedBeforeAnyJob(pipeline(regressor(WORKERS, BATCH)), strings);
    assertEquals("Invalid labelCol = target: column 'target' has type string, not a number, a vector or an array"
        + " of numbers. Cast the target to a number (e.g. col(\"target\").cast(\"double\")); a regression predicts"
        + " real values, not categories.", e.getMessage());
  }

  /** Pipeline.fit fails and no Spark job ran (the StandardScaler before the regressor would run one). */
  private static DsSyncException refusedBeforeAnyJob(Pipeline pipeline, Dataset<Row> input) {
    String group = "refused-" + UUID.randomUUID();
    spark.sparkContext().setJobGroup(group, "must stay empty", false);
    try {
      DsSyncException e = assertThrows(DsSyncException.class, () -> pipeline.fit(input));
      assertEquals(0, spark.sparkContext().statusTracker().getJobIdsForGroup(group).length,
          "a stage was fitted before the refusal");
      return e;
    } finally {
      spark.sparkContext().clearJobGroup();
    }
  }

  /**
   * The validation rows are exactly those marked true: the stage's validation MSE is the evaluator's MSE of the
   * returned model on the marked rows, not on the others.
   */
  @Test
  void theValidationIndicatorColumnValidatesOnTheMarkedRowsOnly() {
    Dataset<Row> marked = new VectorAssembler().setInputCols(FEATURES).setOutputCol("scaled")
        .transform(train.withColumn("id", monotonically_increasing_id()))
        .withColumn("isValidation", col("id").mod(5).equalTo(0))
        .cache();
    long validationRows = marked.filter(col("isValidation")).count();
    assertTrue(validationRows > 50 && validationRows < 100, "validation rows: " + validationRows);
    DsSyncRegressionModel model = regressor(WORKERS, BATCH).setEpochs(3).setValidationIndicatorCol("isValidation")
        .fit(marked);
    StageMetrics stage = model.summary().history().get(model.summary().history().size() - 1);
    assertEquals("r2", stage.testMetricName());
    Dataset<Row> predicted = model.transform(marked).cache();
    RegressionEvaluator mse = new RegressionEvaluator().setLabelCol("target").setMetricName("mse");
    double onMarked = mse.evaluate(predicted.filter(col("isValidation")));
    double onOthers = mse.evaluate(predicted.filter(col("isValidation").equalTo(false)));
    assertEquals(onMarked, stage.testLoss(), 1e-4 * onMarked,
        "validation MSE " + stage.testLoss() + ", marked rows " + onMarked + ", others " + onOthers);
    assertNotEquals(onOthers, stage.testLoss(), 1e-3 * onOthers);

    DsSyncException both = assertThrows(DsSyncException.class, () -> regressor(WORKERS, BATCH)
        .setValidationIndicatorCol("isValidation").setValidationFraction(0.2).fit(marked));
    assertTrue(both.getMessage().startsWith("Invalid validationIndicatorCol = isValidation: validationFraction is"
        + " 0.2 too"), both.getMessage());
    DsSyncException notBoolean = assertThrows(DsSyncException.class, () -> regressor(WORKERS, BATCH)
        .setValidationIndicatorCol("id").fit(marked));
    assertTrue(notBoolean.getMessage().contains("column 'id' has type bigint, not boolean"),
        notBoolean.getMessage());
  }
}
