package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StepFootprintTest {
  @Test
  void aStepHoldsItsForwardTensorsAndPeaksAboveThem() {
    StepFootprint f = new StepFootprint(1_000, 300);
    assertEquals(31_000, f.heldBytes(100));
    assertEquals((long) Math.ceil(31_000 * StepFootprint.PEAK_OVER_HELD), f.peakBytes(100));
  }

  @Test
  void theLargestBatchWithinABudgetIsTheLastWhosePeakFits() {
    StepFootprint f = new StepFootprint(1_000, 300);
    for (long budget : new long[] {49_600, 49_601, 49_999, 1_000_000_007L}) {
      long largest = f.largestBatchWithin(budget);
      assertTrue(f.peakBytes(largest) <= budget && f.peakBytes(largest + 1) > budget, budget + ": " + largest);
    }
  }

  @Test
  void aBudgetBelowTheFixedPartFitsNoExample() {
    StepFootprint f = new StepFootprint(1_000, 300);
    assertEquals(0, f.largestBatchWithin(999));
    assertEquals(0, f.largestBatchWithin(f.peakBytes(1) - 1));
    assertEquals(1, f.largestBatchWithin(f.peakBytes(1)));
  }

  @Test
  void aFootprintThatDoesNotGrowWithTheBatchIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new StepFootprint(0, 0));
    assertThrows(IllegalArgumentException.class, () -> new StepFootprint(-1, 10));
  }
}
