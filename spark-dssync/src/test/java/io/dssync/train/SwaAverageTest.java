package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class SwaAverageTest {
  @Test
  void theStartIsRoundedUpToAStageBoundaryAndOnlyLaterStageEndsAreAveraged() {
    SwaAverage swa = SwaAverage.of(0.5, 30, 4); // 15 steps -> the boundary at 16
    assertEquals(16, swa.startStep());
    swa.add(12, new float[] {100f});
    swa.add(16, new float[] {100f});
    assertEquals(0, swa.count(), "stages ending at or before the start are not averaged");
    swa.add(20, new float[] {1f, 2f});
    swa.add(24, new float[] {3f, 6f});
    swa.add(28, new float[] {5f, 1f});
    assertEquals(3, swa.count());
    assertArrayEquals(new float[] {3f, 3f}, swa.mean(), 1e-6f);
  }

  @Test
  void theFirstModelIsCopiedNotShared() {
    SwaAverage swa = SwaAverage.of(0.1, 10, 1);
    float[] consensus = {1f};
    swa.add(5, consensus);
    consensus[0] = 9f;
    assertArrayEquals(new float[] {1f}, swa.mean());
  }

  @Test
  void zeroIsOffAndARestoredMeanGoesOnCounting() {
    SwaAverage off = SwaAverage.of(0.0, 100, 10);
    assertFalse(off.enabled());
    off.add(100, new float[] {1f});
    assertEquals(0, off.count());
    SwaAverage swa = SwaAverage.of(0.5, 100, 10);
    swa.restore(new float[] {2f}, 2);
    swa.add(100, new float[] {5f});
    assertArrayEquals(new float[] {3f}, swa.mean(), 1e-6f, "(2 + 2 + 5) / 3");
  }

  @Test
  void theSwaRateRulesFromTheStartAndACallbacksRateOverRulesIt() {
    LearningRateSchedule schedule = LearningRateSchedule.constant(0.1, 100);
    LearningRates rates = new LearningRates(schedule, 50, 0.02, Double.NaN);
    assertEquals(0.1f, rates.forStage(40).at(49));
    assertEquals(0.02f, rates.forStage(50).at(50));
    rates.set(0.5);
    assertEquals(0.5f, rates.forStage(60).at(60));
    LearningRates noSwaRate = new LearningRates(schedule, 50, 0.0, Double.NaN);
    assertEquals(0.1f, noSwaRate.forStage(60).at(60), "an SWA rate of 0 keeps the schedule");
  }
}
