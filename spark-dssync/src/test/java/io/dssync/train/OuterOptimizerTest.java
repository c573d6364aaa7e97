package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OuterOptimizerTest {
  @Test
  void aNesterovStepMatchesTheHandComputedOne() {
    // g = 1 - 0.5 = 0.5; b = 0.9 * 0.2 + 0.5 = 0.68; step = 0.5 + 0.9 * 0.68 = 1.112; 1 - 0.7 * 1.112 = 0.2216
    float[] average = {0.5f, 7f};
    float[] buffer = {0.2f};
    new OuterOptimizer(0.7, 0.9, true).step(new float[] {1f, 3f}, average, buffer, 1);
    assertEquals(0.2216f, average[0], 1e-6f);
    assertEquals(0.68f, buffer[0], 1e-6f);
    assertEquals(7f, average[1], "past the trainable parameters (buffers) the plain average stays");
  }

  @Test
  void aHeavyBallStepUsesTheBufferAlone() {
    // g = -1; b = 0.5 * 1 - 1 = -0.5; 2 - 0.1 * (-0.5) = 2.05
    float[] average = {3f};
    float[] buffer = {1f};
    new OuterOptimizer(0.1, 0.5, false).step(new float[] {2f}, average, buffer, 1);
    assertArrayEquals(new float[] {2.05f}, average, 1e-6f);
    assertArrayEquals(new float[] {-0.5f}, buffer, 1e-6f);
  }

  @Test
  void rateOneWithoutMomentumIsThePlainAverageAndCarriesNoState() {
    assertTrue(new OuterOptimizer(1.0, 0.0, true).plainAverage());
    assertEquals(0, new OuterOptimizer(1.0, 0.0, true).stateSize(100));
    assertFalse(new OuterOptimizer(0.7, 0.0, true).plainAverage());
    assertEquals(100, new OuterOptimizer(1.0, 0.9, true).stateSize(100));
  }
}
