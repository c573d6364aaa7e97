package io.dssync.ml;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.testing.TestSpark;
import io.dssync.train.TrainerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark ML estimators take a stage callback and the early-stopping params, and the fitted model's summary
 * (saved and loaded with it) says where and why training stopped.
 */
class EstimatorStoppingTest {
  private static Dataset<Row> blobs;

  @TempDir
  static Path dir;

  @BeforeAll
  static void data() {
    TestSpark.session();
    blobs = DsSyncClassifierSparkMlTest.blobs(2, 240, 1.0, 11).cache();
  }

  @Test
  void aClassifierCallbackStopsTheFitAndTheSavedSummarySaysWhy() throws Exception {
    List<Double> rates = new ArrayList<>();
    DsSyncClassificationModel model = new DsSyncClassifier().setModel("mlp").setWorkers(2).setSchedule("full")
        .setEpochs(4).setBatchSize(16).setStepsPerStage(4).setLearningRate(0.01)
        .setSetting(TrainerConfig.SLOT_WAIT_MS, 5_000)
        .setCallback((metrics, control) -> {
          rates.add(control.learningRate());
          control.setLearningRate(0.002);
          if (metrics.stage() == 1) {
            control.requestStop("enough for the test");
          }
        })
        .fit(blobs);
    assertEquals(2, model.summary().history().size());
    assertTrue(model.summary().stoppedEarly());
    assertEquals(1, model.summary().stop().afterStage());
    assertEquals((double) 0.002f, rates.get(1), "the rate set after stage 1 is the next stage's");
    String path = dir.resolve("stopped").toString();
    model.write().overwrite().save(path);
    DsSyncClassificationModel loaded = DsSyncClassificationModel.load(path);
    assertNotNull(loaded.summary().stop(), "the stop is saved with the summary");
    assertEquals("enough for the test", loaded.summary().stop().reason());
  }

  @Test
  void aRegressorStopsEarlyOnItsValidationRowsAndKeepsTheBestStagesModel() {
    Dataset<Row> rows = blobs.withColumn("target", col("label").multiply(2.0).plus(1.0));
    DsSyncRegressionModel model = new DsSyncRegressor().setLabelCol("target").setWorkers(2).setEpochs(6)
        .setBatchSize(16).setStepsPerStage(4).setLearningRate(0.01).setValidationFraction(0.25)
        .setSetting(TrainerConfig.SLOT_WAIT_MS, 5_000)
        .setSetting(TrainerConfig.EARLY_STOP_PATIENCE, 2)
        .setSetting(TrainerConfig.EARLY_STOP_MIN_DELTA, 10.0)  // R2 cannot rise by 10: the first stage stays best
        .fit(rows);
    TrainingSummary summary = model.summary();
    assertTrue(summary.stoppedEarly(), "patience ran out");
    assertEquals(2, summary.stop().afterStage());
    assertEquals(0, summary.stop().modelStage());
    assertTrue(summary.stop().reason().contains("r2"), summary.stop().reason());
    assertEquals(summary.history().get(0).testMetric(), summary.finalMetric(), "the final R2 is the best stage's");
    Vector prediction = model.predict((Vector) rows.first().getAs("features"));
    assertTrue(Double.isFinite(prediction.apply(0)), "the restored model predicts");
  }
}
