package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.collective.Chunking;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsensusPartTest {
  private static final float[] STATE_THEN_OPTIMIZER = {1f, 2f, 3f, 4f, 5f, 6f, 7f};

  private static List<ConsensusPart> parts(int workers) {
    List<ConsensusPart> parts = new ArrayList<>();
    for (int r = 0; r < workers; r++) {
      parts.add(ConsensusPart.of(r, workers, STATE_THEN_OPTIMIZER, 4, 9));
    }
    return parts;
  }

  @Test
  void thePartsOfEveryRankInAnyOrderMakeTheWholeConsensus() {
    for (int workers : new int[] {1, 2, 3, 7, 10}) {
      List<ConsensusPart> parts = parts(workers);
      Collections.reverse(parts);
      ConsensusState c = ConsensusPart.assemble(parts);
      assertArrayEquals(new float[] {1f, 2f, 3f, 4f}, c.state(), "state, " + workers + " workers");
      assertArrayEquals(new float[] {5f, 6f, 7f}, c.optimizerState(), "optimizer state, " + workers + " workers");
      assertEquals(9, c.optimizerSteps());
    }
  }

  @Test
  void eachRankShipsAboutOneNthOfTheFloats() {
    for (ConsensusPart p : parts(3)) {
      assertTrue(p.values().length == 2 || p.values().length == 3, "part of " + p.values().length + " floats");
    }
  }

  @Test
  void aMissingPartIsReportedWithWhatWasCovered() {
    List<ConsensusPart> parts = parts(3);
    parts.remove(1);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ConsensusPart.assemble(parts));
    int covered = Chunking.length(STATE_THEN_OPTIMIZER.length, 3, 0); // rank 0's part alone
    assertTrue(e.getMessage().contains("after " + covered + " floats covered"), e.getMessage());
  }

  @Test
  void partsThatDisagreeOnTheStepCountAreRefused() {
    List<ConsensusPart> parts = parts(2);
    parts.set(1, ConsensusPart.of(1, 2, STATE_THEN_OPTIMIZER, 4, 10));
    assertThrows(IllegalStateException.class, () -> ConsensusPart.assemble(parts));
  }

  @Test
  void aLastPartMissingIsReported() {
    List<ConsensusPart> parts = parts(2);
    parts.remove(1);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ConsensusPart.assemble(parts));
    int covered = Chunking.length(STATE_THEN_OPTIMIZER.length, 2, 0); // rank 0's part alone
    assertTrue(e.getMessage().contains("cover " + covered + " of 7"), e.getMessage());
  }
}
