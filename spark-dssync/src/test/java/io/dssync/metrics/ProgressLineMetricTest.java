package io.dssync.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Stage lines and final results name the model's own metric. */
class ProgressLineMetricTest {
  private static StageMetrics stage(int stage, double accuracy, String metricName, double metric) {
    return new StageMetrics(stage, 0, 10, 1.0, 2.0, 100, 0.5, 0.4, accuracy, 8, 2, 1, 0.5, 100, 0.01,
        metricName, metric, Double.NaN);
  }

  @Test
  void classifiersKeepTheAccuracyLine() {
    StageMetrics m = new StageMetrics(0, 0, 10, 1.0, 2.0, 100, 0.5, 0.4, 0.81, 8, 2, 1, 0.5, 100, 0.01);
    assertEquals("accuracy", m.testMetricName());
    assertTrue(ProgressLine.format(m, 1, 10).contains("| test acc 0.8100 loss 0.4000 |"));
  }

  @Test
  void theStageEndAverageShowsNextToTheStepsSyncWhenKnown() {
    StageMetrics measured = new StageMetrics(0, 0, 10, 1.0, 2.0, 100, 0.5, 0.4, 0.81, 8, 2, 1, 0.5, 100, 0.01,
        "accuracy", 0.81, 246.4);
    String line = ProgressLine.format(measured, 1, 10);
    assertTrue(line.contains("| sync 20.0% (2.00 ms/step, 1.00 of it waiting for peers), stage-end average 246 ms |"),
        line);
    String unknown = ProgressLine.format(stage(0, 0.81, "accuracy", 0.81), 1, 10);
    assertTrue(unknown.contains("| sync 20.0% (2.00 ms/step, 1.00 of it waiting for peers) |"), unknown);
  }

  @Test
  void theSyncSaysHowMuchOfItWasWaitingForPeers() {
    StageMetrics waiting = new StageMetrics(0, 0, 10, 1.0, 2.0, 100, 0.5, 0.4, 0.81, 30, 4.27, 2.94, 0.98, 100, 0.01);
    String line = ProgressLine.format(waiting, 1, 10);
    assertTrue(line.contains("| sync 12.5% (4.27 ms/step, 2.94 of it waiting for peers) |"), line);
  }

  @Test
  void binaryModelsShowAucAndAccuracy() {
    String line = ProgressLine.format(stage(0, 0.7, "auc", 0.78), 1, 10);
    assertTrue(line.contains("| test auc 0.7800 acc 0.7000 loss 0.4000 |"), line);
  }

  @Test
  void maskedLmShowsMaskedAccuracyOnce() {
    String line = ProgressLine.format(stage(0, 0.2, "masked_accuracy", 0.2), 1, 10);
    assertTrue(line.contains("| test masked_accuracy 0.2000 loss 0.4000 |"), line);
  }

  @Test
  void theLastEvaluatedStageGivesTheFinalMetric() {
    List<StageMetrics> history = List.of(stage(0, 0.6, "auc", 0.7), stage(1, Double.NaN, "auc", Double.NaN));
    assertEquals(0.7, StageMetrics.lastEvaluated(history).orElseThrow().testMetric());
    assertEquals(0.6, StageMetrics.finalTestAccuracy(history));
  }
}
