package io.dssync.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dssync.testing.TestSpark;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Spark UI's accumulators add up every step of every stage, the wait for peers apart from the sync. */
class SparkUiMetricsTest {
  @Test
  void theAccumulatorsSumTheStepsOfEveryStageWithTheWaitForPeersApart() {
    SparkUiMetrics ui = new SparkUiMetrics(TestSpark.session().sparkContext());
    StageMetrics stage = new StageMetrics(0, 0, 2, 0.1, 1.0, 100, 0.5, 0.4, 0.8, 30, 4.5, 2.75, 0.75, 1000, 0.01);
    List<StepMetrics> steps =
        List.of(new StepMetrics(0, 0.5, 30, 4, 3, 0.5, 1000), new StepMetrics(1, 0.5, 31, 5, 2.5, 1, 1000));
    ui.onStage(stage, steps, 2, 4);
    ui.onStage(stage, steps, 2, 4);
    assertEquals(4, ui.steps());
    assertEquals(18, ui.syncMs(), 1e-9);
    assertEquals(11, ui.waitMs(), 1e-9);
  }
}
