package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConsensusCopiesTest {
  private static ConsensusState consensus(float first) {
    return new ConsensusState(new float[] {first, 2f, 3f}, new float[] {0.5f, -1f}, 7);
  }

  private static StageStart start(String fitId, String attempt, long step, ConsensusState c) {
    return new StageStart(null, fitId, attempt, step, c.fingerprint());
  }

  @AfterEach
  void forget() {
    ConsensusCopies.clear();
  }

  @Test
  void aKeptConsensusIsFoundForTheStageThatStartsWhereItEnded() {
    ConsensusState c = consensus(1f);
    ConsensusCopies.keep("fit", "fit", 8, () -> c);
    assertSame(c, ConsensusCopies.find(start("fit", "fit", 8, c)).orElseThrow());
  }

  @Test
  void aCopyFromAnotherAttemptStepOrFitIsNotUsed() {
    ConsensusState c = consensus(1f);
    ConsensusCopies.keep("fit", "fit.a2", 8, () -> c);
    assertTrue(ConsensusCopies.find(start("fit", "fit", 8, c)).isEmpty(), "another attempt of the stage");
    assertTrue(ConsensusCopies.find(start("fit", "fit.a2", 16, c)).isEmpty(), "another stage end");
    assertTrue(ConsensusCopies.find(start("other", "fit.a2", 8, c)).isEmpty(), "another fit");
  }

  @Test
  void aCopyWhoseValuesDifferFromTheDriversIsNotUsed() {
    ConsensusCopies.keep("fit", "fit", 8, () -> consensus(1f));
    assertTrue(ConsensusCopies.find(start("fit", "fit", 8, consensus(1.0000001f))).isEmpty());
  }

  @Test
  void theFirstRankOfAnAttemptKeepsItsCopyAndALaterStageEndReplacesIt() {
    ConsensusState rank0 = consensus(1f);
    ConsensusState rank1 = consensus(1f);
    ConsensusCopies.keep("fit", "fit", 8, () -> rank0);
    ConsensusCopies.keep("fit", "fit", 8, () -> rank1);
    assertSame(rank0, ConsensusCopies.find(start("fit", "fit", 8, rank0)).orElseThrow());
    ConsensusState later = consensus(4f);
    ConsensusCopies.keep("fit", "fit", 16, () -> later);
    assertTrue(ConsensusCopies.find(start("fit", "fit", 8, rank0)).isEmpty(), "one copy per fit");
    assertSame(later, ConsensusCopies.find(start("fit", "fit", 16, later)).orElseThrow());
  }

  @Test
  void onlyTheMostRecentlyUsedFitsKeepCopies() {
    ConsensusState c = consensus(1f);
    for (int fit = 0; fit <= ConsensusCopies.FITS; fit++) {
      ConsensusCopies.keep("fit" + fit, "a", 8, () -> c);
    }
    assertTrue(ConsensusCopies.find(start("fit0", "a", 8, c)).isEmpty(), "the oldest fit's copy is dropped");
    assertTrue(ConsensusCopies.find(start("fit" + ConsensusCopies.FITS, "a", 8, c)).isPresent());
  }

  @Test
  void theFingerprintChangesWithAnyBitOfStateOptimizerStateOrStepCount() {
    long base = consensus(1f).fingerprint();
    assertEquals(base, consensus(1f).fingerprint(), "same values, same fingerprint");
    assertNotEquals(base, new ConsensusState(new float[] {Math.nextUp(1f), 2f, 3f}, new float[] {0.5f, -1f}, 7)
        .fingerprint(), "last bit of a parameter");
    assertNotEquals(base, new ConsensusState(new float[] {1f, 2f, 3f}, new float[] {0.5f, -1f}, 8).fingerprint(),
        "optimizer steps");
    assertNotEquals(base, new ConsensusState(new float[] {1f, 2f, 3f}, new float[] {0.5f, 1f}, 7).fingerprint(),
        "optimizer state sign");
    assertNotEquals(new ConsensusState(new float[] {0f}, new float[0], 0).fingerprint(),
        new ConsensusState(new float[] {-0f}, new float[0], 0).fingerprint(), "+0 and -0");
    // A value moved from the end of the state to the start of the optimizer state is another consensus.
    assertNotEquals(new ConsensusState(new float[] {1f, 2f}, new float[] {3f}, 0).fingerprint(),
        new ConsensusState(new float[] {1f}, new float[] {2f, 3f}, 0).fingerprint(), "split between the two");
  }
}
