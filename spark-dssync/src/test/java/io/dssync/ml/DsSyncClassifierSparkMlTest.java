package io.dssync.ml;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.metrics.StageMetrics;
import io.dssync.models.BuiltInModel;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSpec;
import io.dssync.models.TorchScriptModel;
import io.dssync.testing.ScalaLists;
import io.dssync.testing.TestSpark;
import io.dssync.testing.TorchScripts;
import io.dssync.train.TrainerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.evaluation.BinaryClassificationEvaluator;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.tuning.CrossValidator;
import org.apache.spark.ml.tuning.CrossValidatorModel;
import org.apache.spark.ml.tuning.ParamGridBuilder;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DsSyncClassifier as a Spark ML ProbabilisticClassifier: thresholds, the one-row predict methods against
 * transform, Spark's tuning and evaluators, a TorchScript modelFile, validation indicator rows and the loss check.
 * Tiny data (Gaussian blobs of 4 features) and a tiny mlp on two workers of the shared session.
 */
class DsSyncClassifierSparkMlTest {
  private static SparkSession spark;
  /** Two overlapping blobs: a model that is unsure of many rows, so thresholds move predictions. */
  private static Dataset<Row> twoClasses;
  private static DsSyncClassificationModel twoClassModel;

  @TempDir
  static Path dir;

  @BeforeAll
  static void fitTwoClassModel() {
    spark = TestSpark.session();
    twoClasses = blobs(2, 240, 1.0, 7).cache();
    twoClassModel = classifier().fit(twoClasses);
  }

  private static DsSyncClassifier classifier() {
    return new DsSyncClassifier().setModel("mlp").setWorkers(2).setSchedule("full").setEpochs(3).setBatchSize(16)
        .setStepsPerStage(8).setLearningRate(0.01).setSetting(TrainerConfig.OPTIMIZER, "adam")
        .setSetting(TrainerConfig.SLOT_WAIT_MS, 5_000);
  }

  @Test
  void thresholdsPredictTheClassOfTheLargestProbabilityOverThreshold() {
    List<Row> plain = twoClassModel.transform(twoClasses).select("probability", "prediction").collectAsList();
    double[] thresholds = {0.9, 0.1};
    DsSyncClassificationModel favouringOne = twoClassModel.copy(new ParamMap()).setThresholds(thresholds);
    List<Row> favoured = favouringOne.transform(twoClasses).select("probability", "prediction").collectAsList();

    int onesBefore = 0;
    int onesAfter = 0;
    for (int i = 0; i < plain.size(); i++) {
      double[] p = ((Vector) favoured.get(i).get(0)).toArray();
      assertArrayEquals(((Vector) plain.get(i).get(0)).toArray(), p, "thresholds leave the probabilities alone");
      double expected = p[1] / thresholds[1] > p[0] / thresholds[0] ? 1 : 0;
      assertEquals(expected, favoured.get(i).getDouble(1), "row " + i + ": argmax of p / t over " + p[0] + ", "
          + p[1]);
      assertEquals(p[1] > p[0] ? 1.0 : 0.0, plain.get(i).getDouble(1), "row " + i + " without thresholds");
      onesBefore += plain.get(i).getDouble(1) == 1 ? 1 : 0;
      onesAfter += favoured.get(i).getDouble(1) == 1 ? 1 : 0;
    }
    assertTrue(onesAfter > onesBefore, "thresholds favouring class 1 predict it more: " + onesBefore + " -> "
        + onesAfter);

    // A zero threshold makes its class win wherever its probability is not 0 (Spark's rule).
    List<Row> zero = twoClassModel.copy(new ParamMap()).setThresholds(new double[] {0, 1}).transform(twoClasses)
        .select("prediction").collectAsList();
    assertTrue(zero.stream().allMatch(r -> r.getDouble(0) == 0), "a threshold of 0 always predicts its class");

    IllegalArgumentException wrongLength = assertThrows(IllegalArgumentException.class, () -> twoClassModel
        .copy(new ParamMap()).setThresholds(new double[] {0.2, 0.3, 0.5}));
    assertTrue(wrongLength.getMessage().contains("numClasses=2"), wrongLength.getMessage());
  }

  @Test
  void predictPredictRawAndPredictProbabilityAgreeWithTransformRowByRow() {
    DsSyncClassificationModel model = twoClassModel.copy(new ParamMap()).setThresholds(new double[] {0.7, 0.3});
    List<Row> rows = model.transform(twoClasses.limit(40))
        .select("features", "rawPrediction", "probability", "prediction").collectAsList();
    for (Row row : rows) {
      Vector features = (Vector) row.get(0);
      double[] raw = ((Vector) row.get(1)).toArray();
      double[] probability = ((Vector) row.get(2)).toArray();
      // One row alone and a batch of rows may sum in another order in float32.
      assertArrayEquals(raw, model.predictRaw(features).toArray(), 1e-5, "rawPrediction of " + features);
      assertArrayEquals(probability, model.predictProbability(features).toArray(), 1e-5, "probability");
      assertEquals(row.getDouble(3), model.predict(features), "prediction under thresholds of " + features);
      assertEquals(0.0, raw[0], "two classes: rawPrediction is (0, log-odds of class 1)");
      assertEquals(Math.log(probability[1] / probability[0]), raw[1], 1e-6, "probability is softmax(raw)");
    }
    assertEquals(2, model.numClasses());
    assertEquals(4, model.numFeatures());
  }

  @Test
  void crossValidatorTunesTheClassifierScoredBySparksClassificationEvaluators() {
    Dataset<Row> threeClasses = blobs(3, 180, 0.6, 11).cache();
    DsSyncClassifier dssync = classifier();
    @SuppressWarnings("unchecked")
    org.apache.spark.ml.param.Param<Object> lr = (org.apache.spark.ml.param.Param<Object>) dssync
        .getParam("learningRate");
    CrossValidator tuning = new CrossValidator().setEstimator(dssync).setNumFolds(2).setSeed(3)
        .setEstimatorParamMaps(new ParamGridBuilder().addGrid(lr,
            ScalaLists.of(List.<Object>of(1e-6, 0.01))).build())
        .setEvaluator(new MulticlassClassificationEvaluator().setMetricName("accuracy"));
    CrossValidatorModel tuned = tuning.fit(threeClasses);

    double[] accuracy = tuned.avgMetrics();
    assertEquals(2, accuracy.length);
    assertTrue(accuracy[1] > accuracy[0] && accuracy[1] > 0.6, "learning rate 1e-6 barely moves, 0.01 learns: "
        + accuracy[0] + " vs " + accuracy[1]);
    DsSyncClassificationModel best = assertInstanceOf(DsSyncClassificationModel.class, tuned.bestModel());
    assertEquals(0.01, (Double) best.getOrDefault(best.getParam("learningRate")));
    double logLoss = new MulticlassClassificationEvaluator().setMetricName("logLoss")
        .evaluate(tuned.transform(threeClasses));
    assertTrue(logLoss < Math.log(3), "log-loss from the probability column below chance's: " + logLoss);

    double auc = new BinaryClassificationEvaluator().evaluate(twoClassModel.transform(twoClasses));
    assertTrue(auc > 0.7, "AUC from rawPrediction of the two-class model: " + auc);
  }

  @Test
  void aTorchScriptModelFileTrainsThroughTheModelFileParam() throws Exception {
    TorchScripts.requireTorch();
    Path file = TorchScripts.export(dir.resolve("mlp.pt"), "regression_mlp:RegressionMlp",
        "{\"inputs\": 4, \"hidden\": 16, \"outputs\": 3}", "4", 3, null);
    Dataset<Row> threeClasses = blobs(3, 180, 0.6, 13);
    DsSyncClassificationModel model = classifier().setModelFile(file.toString()).setLearningRate(0.05).setEpochs(6)
        .fit(threeClasses);
    assertInstanceOf(TorchScriptModel.class, model.spec().modelSource());
    double[] losses = model.summary().lossHistory();
    assertTrue(losses[losses.length - 1] < losses[0], "training loss falls: " + java.util.Arrays.toString(losses));
    assertEquals(3, model.numClasses());
    double accuracy = new MulticlassClassificationEvaluator().setMetricName("accuracy")
        .evaluate(model.transform(threeClasses));
    assertTrue(accuracy > 0.6, "the file's network learned the blobs: accuracy " + accuracy);

    String saved = dir.resolve("torchscript-classifier").toString();
    model.write().save(saved);
    DsSyncClassificationModel loaded = DsSyncClassificationModel.load(saved);
    assertEquals(model.transform(threeClasses).select("prediction").collectAsList(),
        loaded.transform(threeClasses).select("prediction").collectAsList());
  }

  /**
   * The validation rows are exactly those marked true: the last stage's validation loss is Spark's log-loss of the
   * returned model on the marked rows, not on the others.
   */
  @Test
  void theValidationIndicatorColumnValidatesOnTheMarkedRowsOnly() {
    Dataset<Row> marked = twoClasses.withColumn("isValidation", col("id").mod(4).equalTo(0)).cache();
    DsSyncClassificationModel model = classifier().setValidationIndicatorCol("isValidation").fit(marked);
    StageMetrics stage = model.summary().history().get(model.summary().history().size() - 1);
    assertEquals("accuracy", stage.testMetricName());
    Dataset<Row> predicted = model.transform(marked).cache();
    MulticlassClassificationEvaluator logLoss = new MulticlassClassificationEvaluator().setMetricName("logLoss");
    double onMarked = logLoss.evaluate(predicted.filter(col("isValidation")));
    double onOthers = logLoss.evaluate(predicted.filter(col("isValidation").equalTo(false)));
    assertEquals(onMarked, stage.testLoss(), 1e-4 * onMarked,
        "validation loss " + stage.testLoss() + ", marked rows " + onMarked + ", others " + onOthers);
    assertNotEquals(onOthers, stage.testLoss(), 1e-3 * onOthers);

    DsSyncException both = assertThrows(DsSyncException.class, () -> classifier()
        .setValidationIndicatorCol("isValidation").setValidationFraction(0.2).fit(marked));
    assertTrue(both.getMessage().startsWith("Invalid validationIndicatorCol = isValidation: validationFraction is"
        + " 0.2 too"), both.getMessage());
    DsSyncException notBoolean = assertThrows(DsSyncException.class, () -> classifier()
        .setValidationIndicatorCol("id").fit(marked));
    assertTrue(notBoolean.getMessage().contains("column 'id' has type int, not boolean"), notBoolean.getMessage());
  }

  @Test
  void aRegressionLossIsRefusedNamingTheValueAndTheFix() {
    StructType schema = twoClasses.schema();
    DsSyncException mse = assertThrows(DsSyncException.class, () -> classifier().setLoss("mse")
        .transformSchema(schema));
    assertEquals("Invalid loss = mse: DsSyncClassifier predicts one class per row, so the loss must be cross-entropy"
        + " or binary (a mse model does not score classes). Set loss to cross-entropy or binary, or use"
        + " DsSyncRegressor for real-valued labels.", mse.getMessage());
    DsSyncException huber = assertThrows(DsSyncException.class, () -> classifier().setLoss("huber").fit(twoClasses));
    assertTrue(huber.getMessage().contains("loss = huber") && huber.getMessage().contains("DsSyncRegressor"),
        huber.getMessage());
    assertEquals(schema.fields().length + 3, classifier().setLoss("cross-entropy").transformSchema(schema)
        .fields().length);

    // A regression's result wrapped as a classification model (as dssync train --save-model does) scores no classes.
    ModelSpec regression = new ModelSpec("mlp", 1, 4, 1, 0, 1, 0, 1, LossKind.MSE, new BuiltInModel("mlp"));
    DsSyncClassificationModel wrapped = DsSyncClassificationModel.restore("regression", regression, new float[0],
        null, null);
    DsSyncException noClasses = assertThrows(DsSyncException.class, () -> wrapped.transform(twoClasses));
    assertTrue(noClasses.getMessage().contains("DsSyncRegressionModel.fromTraining"), noClasses.getMessage());
  }

  /**
   * {@code rows} rows of {@code classes} Gaussian blobs in 4 dimensions, class c centred at c on every axis with
   * standard deviation {@code spread}; columns id, features, label.
   */
  /** Gaussian blobs of 4 features around 0, 1, ... per class, shared with other estimator tests. */
  static Dataset<Row> blobs(int classes, int rows, double spread, long seed) {
    Random random = new Random(seed);
    List<Row> out = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      int c = i % classes;
      double[] x = new double[4];
      for (int j = 0; j < x.length; j++) {
        x[j] = c + spread * random.nextGaussian();
      }
      out.add(RowFactory.create(i, Vectors.dense(x), (double) c));
    }
    StructType schema = new StructType().add("id", DataTypes.IntegerType, false)
        .add("features", SQLDataTypes.VectorType(), false).add("label", DataTypes.DoubleType, false);
    return TestSpark.session().createDataFrame(out, schema);
  }
}
