package io.dssync.data.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

class HoldOutTest {
  @Test
  void aFractionOutsideZeroToOneIsNamedWithTheFix() {
    for (double bad : new double[] {0, 1, -0.1, 1.5, Double.NaN}) {
      DsSyncException e = assertThrows(DsSyncException.class, () -> new HoldOut(bad, 1));
      assertTrue(e.getMessage().contains("validationFraction") && e.getMessage().contains(String.valueOf(bad)),
          e.getMessage());
    }
  }

  @Test
  void holdsOutAboutTheFractionAskedAndTheSameExamplesEveryTime() {
    HoldOut holdOut = new HoldOut(0.1, 42);
    int held = 0;
    for (int p = 0; p < 10; p++) {
      held += holdOut.heldCount(p, 10_000);
    }
    // 100,000 draws: the standard deviation of the count is about 95.
    assertTrue(Math.abs(held - 10_000) < 500, held + " of 100,000 held out at 0.1");
    assertEquals(heldSet(holdOut, 3), heldSet(new HoldOut(0.1, 42), 3), "a new instance holds out the same");
  }

  @Test
  void anotherSeedOrPartitionHoldsOutOtherExamples() {
    assertNotEquals(heldSet(new HoldOut(0.2, 1), 0), heldSet(new HoldOut(0.2, 2), 0));
    assertNotEquals(heldSet(new HoldOut(0.2, 1), 0), heldSet(new HoldOut(0.2, 1), 1));
  }

  @Test
  void heldAndKeptSplitABlockInItsOrder() {
    int d = 2;
    int n = 50;
    float[] f = new float[n * d];
    int[] l = new int[n];
    for (int j = 0; j < n; j++) {
      f[j * d] = j;
      f[j * d + 1] = -j;
      l[j] = j % 3;
    }
    HoldOut holdOut = new HoldOut(0.3, 7);
    LabeledArrays block = new LabeledArrays(f, l, d, 3);
    LabeledArrays held = holdOut.select(4, block, true);
    LabeledArrays kept = holdOut.select(4, block, false);
    assertEquals(n, held.size() + kept.size());
    assertEquals(holdOut.heldCount(4, n), held.size());
    int h = 0;
    int k = 0;
    for (int j = 0; j < n; j++) {
      LabeledArrays side = holdOut.holds(4, j) ? held : kept;
      int at = holdOut.holds(4, j) ? h++ : k++;
      assertArrayEquals(new float[] {j, -j}, new float[] {side.features()[at * d], side.features()[at * d + 1]});
      assertEquals(j % 3, side.labels()[at]);
    }
  }

  private static BitSet heldSet(HoldOut holdOut, int partition) {
    BitSet set = new BitSet();
    for (int j = 0; j < 1_000; j++) {
      set.set(j, holdOut.holds(partition, j));
    }
    return set;
  }
}
