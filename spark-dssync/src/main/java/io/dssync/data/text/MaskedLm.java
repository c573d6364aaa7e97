package io.dssync.data.text;

import java.util.SplittableRandom;

/**
 * BERT's masked-LM corruption of token sequences. In each sequence 15% of the maskable positions
 * (real tokens and [UNK]; not [PAD], [CLS], [SEP]) are chosen (rounded, at least one, so every
 * example has a target); of those, 80% become [MASK], 10% a random real piece, 10% stay as they
 * are. Output per example is 2 rows of {@code length}: row 0 the corrupted input ids, row 1 the
 * original id at chosen positions and -1 elsewhere.
 *
 * <p>The choice is seeded per example ({@code seed} and the example's index), so it does not
 * depend on the order or the partitioning in which examples are processed.
 */
public final class MaskedLm {
  public static final double MASK_FRACTION = 0.15;
  public static final int IGNORE = -1;

  private MaskedLm() {}

  /** Masks {@code count} sequences of {@code length} ids stored back to back in {@code ids}. */
  public static float[] mask(float[] ids, int length, int vocabSize, long seed) {
    int count = ids.length / length;
    float[] out = new float[count * 2 * length];
    int[] candidates = new int[length];
    for (int e = 0; e < count; e++) {
      SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + e);
      int in = e * length;
      int inputRow = e * 2 * length;
      int targetRow = inputRow + length;
      int n = 0;
      for (int i = 0; i < length; i++) {
        float id = ids[in + i];
        out[inputRow + i] = id;
        out[targetRow + i] = IGNORE;
        if (isMaskable((int) id)) {
          candidates[n++] = i;
        }
      }
      if (n == 0) {
        continue;
      }
      int chosen = Math.max(1, (int) Math.round(n * MASK_FRACTION));
      for (int k = 0; k < chosen; k++) { // partial Fisher-Yates: the first `chosen` candidates
        int j = k + random.nextInt(n - k);
        int swap = candidates[k];
        candidates[k] = candidates[j];
        candidates[j] = swap;
        int position = candidates[k];
        out[targetRow + position] = ids[in + position];
        int roll = random.nextInt(10);
        if (roll < 8) {
          out[inputRow + position] = WordPieceVocabulary.MASK;
        } else if (roll == 8) {
          out[inputRow + position] =
              random.nextInt(WordPieceVocabulary.MASK + 1, vocabSize);
        } // else: unchanged
      }
    }
    return out;
  }

  static boolean isMaskable(int id) {
    return id == WordPieceVocabulary.UNK || id > WordPieceVocabulary.MASK;
  }
}
