package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.metrics.StageMetrics;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EarlyStoppingTest {
  private static StageMetrics stage(int stage, String metric, double value, double testLoss) {
    return new StageMetrics(stage, stage * 4L, stage * 4L + 4, stage, 1, 1, 0.5, testLoss, Double.NaN, 1, 1, 0, 0, 0,
        0, metric, value, Double.NaN);
  }

  private static StageMetrics accuracy(int stage, double value) {
    return stage(stage, "accuracy", value, 1.0);
  }

  @Test
  void stopsWhenPatienceEvaluationsDoNotBeatTheBestByMoreThanMinDelta() {
    EarlyStopping early = new EarlyStopping(2, 0.01, false);
    assertTrue(early.observe(accuracy(0, 0.50), new float[] {0}).isEmpty());
    assertTrue(early.observe(accuracy(1, 0.60), new float[] {1}).isEmpty());
    assertTrue(early.observe(accuracy(2, 0.605), new float[] {2}).isEmpty(), "within min delta: one strike");
    Optional<String> stop = early.observe(accuracy(3, 0.61), new float[] {3});
    assertTrue(stop.isPresent(), "0.61 is not more than 0.60 + 0.01: the second strike stops");
    assertEquals(1, early.progress().bestStage());
    assertArrayEquals(new float[] {1}, early.progress().bestModel());
    assertTrue(stop.get().contains("accuracy") && stop.get().contains("after stage 2"), stop.get());
  }

  @Test
  void anImprovementResetsTheCount() {
    EarlyStopping early = new EarlyStopping(2, 0.0, false);
    early.observe(accuracy(0, 0.5), new float[] {0});
    early.observe(accuracy(1, 0.4), new float[] {1});
    assertTrue(early.observe(accuracy(2, 0.7), new float[] {2}).isEmpty());
    assertEquals(0, early.progress().evaluationsSinceBest());
    assertTrue(early.observe(accuracy(3, 0.7), new float[] {3}).isEmpty());
    assertTrue(early.observe(accuracy(4, 0.69), new float[] {4}).isPresent());
    assertArrayEquals(new float[] {2}, early.progress().bestModel());
  }

  @Test
  void theLossAndACustomLossMetricAreLowerIsBetter() {
    EarlyStopping onLoss = new EarlyStopping(1, 0.0, true);
    onLoss.observe(stage(0, "accuracy", 0.1, 2.0), new float[] {0});
    assertTrue(onLoss.observe(stage(1, "accuracy", 0.0, 1.5), new float[] {1}).isEmpty(), "loss fell");
    assertTrue(onLoss.observe(stage(2, "accuracy", 0.9, 1.6), new float[] {2}).isPresent(), "loss rose");
    assertEquals(1, onLoss.progress().bestStage());

    EarlyStopping custom = new EarlyStopping(1, 0.0, false);
    custom.observe(stage(0, "loss", 3.0, 3.0), new float[] {0});
    assertTrue(custom.observe(stage(1, "loss", 2.0, 2.0), new float[] {1}).isEmpty());
    assertTrue(custom.observe(stage(2, "loss", 2.5, 2.5), new float[] {2}).isPresent());
  }

  @Test
  void stagesWithoutEvaluationAndNanValuesDoNotCountAsImprovements() {
    EarlyStopping early = new EarlyStopping(2, 0.0, false);
    early.observe(accuracy(0, 0.5), new float[] {0});
    StageMetrics notEvaluated = stage(1, "accuracy", Double.NaN, Double.NaN);
    assertTrue(early.observe(notEvaluated, new float[] {1}).isEmpty());
    assertEquals(0, early.progress().evaluationsSinceBest(), "a stage without evaluation is no strike");
    EarlyStopping onLoss = new EarlyStopping(2, 0.0, true);
    onLoss.observe(stage(0, "accuracy", 0.5, 1.0), new float[] {0});
    onLoss.observe(stage(1, "accuracy", 0.6, Double.NaN), new float[] {1});
    assertEquals(1, onLoss.progress().evaluationsSinceBest(), "a NaN value is a strike, never a best");
    assertEquals(0, onLoss.progress().bestStage());
  }

  @Test
  void aRestoredProgressKeepsItsCountAndIsOutOfPatienceAtOnce() {
    EarlyStopping early = new EarlyStopping(2, 0.0, false);
    early.restore(new EarlyStopping.Progress(0.8, 3, 2, new float[] {3}));
    assertTrue(early.outOfPatience());
    assertTrue(early.reasonOnResume().contains("after stage 4"), early.reasonOnResume());
    EarlyStopping off = new EarlyStopping(0, 0.0, false);
    assertFalse(off.observe(accuracy(0, 0.1), new float[] {0}).isPresent());
    assertFalse(off.outOfPatience());
  }

  @Test
  void theBestModelIsACopyThatLaterStagesCannotChange() {
    EarlyStopping early = new EarlyStopping(1, 0.0, false);
    float[] model = {1, 2};
    early.observe(accuracy(0, 0.5), model);
    model[0] = 99;
    assertArrayEquals(new float[] {1, 2}, early.progress().bestModel());
  }
}
