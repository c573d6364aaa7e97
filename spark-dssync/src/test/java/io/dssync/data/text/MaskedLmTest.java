package io.dssync.data.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MaskedLmTest {
  private static final int L = 64;
  private static final int VOCAB = 1000;

  /** Sequences like the text datasets make: [CLS] 20..60 real ids [SEP] [PAD]... */
  private static float[] sequences(int count) {
    Random random = new Random(3);
    float[] ids = new float[count * L];
    for (int e = 0; e < count; e++) {
      int n = 20 + random.nextInt(41);
      ids[e * L] = WordPieceVocabulary.CLS;
      for (int i = 1; i <= n; i++) {
        ids[e * L + i] = 5 + random.nextInt(VOCAB - 5);
      }
      ids[e * L + n + 1] = WordPieceVocabulary.SEP;
    }
    return ids;
  }

  @Test
  void chooses15PercentOfTokensAndSplitsThem80_10_10() {
    float[] ids = sequences(4000);
    float[] out = MaskedLm.mask(ids, L, VOCAB, 42);
    long tokens = 0;
    long chosen = 0;
    long masked = 0;
    long unchanged = 0;
    long random = 0;
    for (int e = 0; e < 4000; e++) {
      boolean any = false;
      for (int i = 0; i < L; i++) {
        int original = (int) ids[e * L + i];
        int input = (int) out[e * 2 * L + i];
        int target = (int) out[e * 2 * L + L + i];
        if (MaskedLm.isMaskable(original)) {
          tokens++;
        }
        if (target == MaskedLm.IGNORE) {
          assertEquals(original, input, "unchosen positions are untouched");
          continue;
        }
        any = true;
        assertTrue(MaskedLm.isMaskable(original), "never [CLS], [SEP] or [PAD]");
        assertEquals(original, target);
        chosen++;
        if (input == WordPieceVocabulary.MASK) {
          masked++;
        } else if (input == original) {
          unchanged++;
        } else {
          assertTrue(input > WordPieceVocabulary.MASK && input < VOCAB, "random id " + input);
          random++;
        }
      }
      assertTrue(any, "every example has a target");
    }
    assertEquals(0.15, (double) chosen / tokens, 0.01);
    assertEquals(0.8, (double) masked / chosen, 0.02);
    assertEquals(0.1, (double) random / chosen, 0.02);
    // A random replacement can hit the original id, so "unchanged" is a little over 10%.
    assertEquals(0.1, (double) unchanged / chosen, 0.02);
  }

  @Test
  void theSameSeedGivesTheSameMasksAndAnotherSeedOthers() {
    float[] ids = sequences(200);
    assertArrayEquals(MaskedLm.mask(ids, L, VOCAB, 7), MaskedLm.mask(ids, L, VOCAB, 7));
    assertFalse(Arrays.equals(MaskedLm.mask(ids, L, VOCAB, 7), MaskedLm.mask(ids, L, VOCAB, 8)));
    // Per-example seeding: masking a prefix gives the prefix of the masks.
    float[] prefix = Arrays.copyOf(ids, 50 * L);
    assertArrayEquals(MaskedLm.mask(prefix, L, VOCAB, 7),
        Arrays.copyOf(MaskedLm.mask(ids, L, VOCAB, 7), 50 * 2 * L));
  }
}
