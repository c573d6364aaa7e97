package io.dssync.ml;

import static org.apache.spark.ml.functions.vector_to_array;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.data.frame.DataFrames;
import io.dssync.metrics.MetricsRun;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import io.dssync.train.TrainerConfig;
import java.io.File;
import java.util.List;
import java.util.UUID;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.StringIndexer;
import org.apache.spark.ml.feature.StringIndexerModel;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Spark ML stage end to end on local-cluster (training and prediction run on executor JVMs)
 * with real Fashion-MNIST: StringIndexer -> VectorAssembler -> DsSyncClassifier in a Pipeline,
 * fitted, saved, loaded, and compared prediction by prediction.
 */
class DsSyncPipelineTest {
  private static SparkSession spark;
  private static Dataset<Row> train;
  private static Dataset<Row> test;
  private static DatasetSplits data;

  @BeforeAll
  static void start() {
    spark = TestSpark.session();
    data = TestData.fashionMnist(1_024, 200);
    train = withStringLabels(DataFrames.toDataFrame(spark, data.train(), 4));
    test = withStringLabels(DataFrames.toDataFrame(spark, data.test(), 2));
  }

  /** Raw input as users have it: a pixel vector and a string category. */
  private static Dataset<Row> withStringLabels(Dataset<Row> frame) {
    return frame.withColumnRenamed("features", "pixels")
        .withColumn("category", concat(lit("class-"), col("label").cast("int")))
        .drop("label");
  }

  private static String freshPath(String name) {
    return new File(System.getProperty("dssync.buildDir"), "ml-test/" + name + "-" + UUID.randomUUID())
        .getAbsolutePath();
  }

  @Test
  void pipelineFitTransformSaveLoadGivesIdenticalPredictions() throws Exception {
    String metrics = freshPath("metrics") + ".jsonl";
    DsSyncClassifier classifier = new DsSyncClassifier()
        .setWorkers(2).setSchedule("full").setEpochs(2).setBatchSize(32).setStepsPerStage(8)
        .setModel("mlp").setLearningRate(0.05).setValidationFraction(0.1).setMetricsPath(metrics)
        .setSetting(TrainerConfig.SLOT_WAIT_MS, 5_000);
    Pipeline pipeline = new Pipeline().setStages(new PipelineStage[] {
        new StringIndexer().setInputCol("category").setOutputCol("label"),
        new VectorAssembler().setInputCols(new String[] {"pixels"}).setOutputCol("features"),
        classifier});

    PipelineModel fitted = pipeline.fit(train);
    List<Row> before = fitted.transform(test).select("label", "prediction", "probability").collectAsList();

    DsSyncClassificationModel model = (DsSyncClassificationModel) fitted.stages()[2];
    assertEquals(10, model.numClasses(), "numClasses comes from StringIndexer's label metadata");
    assertEquals(28, model.spec().height(), "784 features are derived as a 1 x 28 x 28 image");
    TrainingSummary summary = model.summary();
    assertTrue(summary.history().size() >= 2, "one history entry per stage");
    assertTrue(summary.finalAccuracy() > 0.4, "validation accuracy after 2 epochs: " + summary.finalAccuracy());
    assertTrue(Double.isFinite(summary.lossHistory()[0]));
    assertTrue(summary.meanSyncWaitMsPerStep() >= 0 && summary.meanSyncWaitMsPerStep() <= summary.meanSyncMsPerStep(),
        "the wait for peers is part of the sync: " + summary.meanSyncWaitMsPerStep() + " of "
            + summary.meanSyncMsPerStep());
    assertTrue(accuracy(before) > 0.4, "test accuracy on real Fashion-MNIST: " + accuracy(before));
    float sum = 0;
    for (double p : ((Vector) before.get(0).get(2)).toArray()) {
      sum += p;
    }
    assertEquals(1.0, sum, 1e-4, "probabilities sum to 1");

    String path = freshPath("pipeline");
    fitted.write().save(path);
    PipelineModel loaded = PipelineModel.load(path);
    List<Row> after = loaded.transform(test).select("label", "prediction", "probability").collectAsList();

    assertEquals(before.size(), after.size());
    for (int i = 0; i < before.size(); i++) {
      assertEquals(before.get(i).getDouble(1), after.get(i).getDouble(1), "prediction of row " + i);
      assertArrayEquals(((Vector) before.get(i).get(2)).toArray(), ((Vector) after.get(i).get(2)).toArray(),
          "probabilities of row " + i);
    }
    DsSyncClassificationModel reloaded = (DsSyncClassificationModel) loaded.stages()[2];
    assertEquals(summary, reloaded.summary(), "the training summary survives save/load");
    assertArrayEquals(model.state(), reloaded.state());
    assertTrue(((StringIndexerModel) loaded.stages()[0]).labelsArray()[0].length == 10);

    MetricsRun run = MetricsRun.read(metrics, spark.sparkContext().hadoopConfiguration());
    assertEquals(summary.totalSteps(), run.steps().size(), "one metrics line per step");
    assertEquals(summary.history().size(), run.stages().size(), "one metrics line per stage");
  }

  @Test
  void anArrayOfNumbersAsFeaturesFitsAndPredicts() {
    // vector_to_array: the column a user holding arrays passes; fit once failed on it reading vector metadata.
    Dataset<Row> arrays = DataFrames.toDataFrame(spark, data.train(), 4)
        .withColumn("features", vector_to_array(col("features"), "float32"));
    DsSyncClassificationModel model = new DsSyncClassifier()
        .setWorkers(2).setSchedule("full").setEpochs(2).setBatchSize(32).setStepsPerStage(8)
        .setModel("mlp").setLearningRate(0.05).setSetting(TrainerConfig.SLOT_WAIT_MS, 5_000)
        .fit(arrays);
    assertEquals(28, model.spec().height(), "784 numbers per row are derived as a 1 x 28 x 28 image");
    List<Row> predicted = model.transform(DataFrames.toDataFrame(spark, data.test(), 2)
        .withColumn("features", vector_to_array(col("features"), "float32")))
        .select("label", "prediction").collectAsList();
    assertEquals(data.test().size(), predicted.size());
    assertTrue(accuracy(predicted) > 0.4, "test accuracy on real Fashion-MNIST: " + accuracy(predicted));
  }

  @Test
  void estimatorSavesAndLoadsWithEveryParam() throws Exception {
    DsSyncClassifier classifier = new DsSyncClassifier().setGroupSize(4).setSchedule("butterfly")
        .setWorkers(16).setFeaturesCol("x").setInputShape(1, 28, 28).setLearningRate(0.2);
    String path = freshPath("estimator");
    classifier.write().save(path);
    DsSyncClassifier loaded = DsSyncClassifier.load(path);
    assertEquals(classifier.uid(), loaded.uid());
    assertEquals(classifier.extractParamMap().toString(), loaded.extractParamMap().toString());
    assertEquals(0.2, loaded.getSetting(TrainerConfig.LEARNING_RATE));
    assertEquals(classifier.trainerConfig().describe(), loaded.trainerConfig().describe());
  }

  private static double accuracy(List<Row> rows) {
    long hits = rows.stream().filter(r -> r.getDouble(0) == r.getDouble(1)).count();
    return (double) hits / rows.size();
  }
}
