package io.dssync.data.text;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits text into word pieces of a {@link WordPieceVocabulary}, as BERT's uncased tokenizer does:
 * lower-case, split into words (runs of letters and digits) and single punctuation marks, then
 * split each word greedily into the longest pieces the vocabulary has; a word that cannot be
 * split (it holds a character the vocabulary lacks) becomes [UNK].
 */
public final class WordPieceTokenizer implements Serializable {
  private final WordPieceVocabulary vocabulary;

  public WordPieceTokenizer(WordPieceVocabulary vocabulary) {
    this.vocabulary = vocabulary;
  }

  public WordPieceVocabulary vocabulary() {
    return vocabulary;
  }

  /** Lower-cased words and punctuation marks of {@code text}, in order. */
  public static List<String> words(String text) {
    List<String> words = new ArrayList<>();
    String lower = text.toLowerCase(Locale.ROOT);
    int start = -1;
    for (int i = 0; i < lower.length(); i++) {
      char c = lower.charAt(i);
      if (Character.isLetterOrDigit(c)) {
        if (start < 0) {
          start = i;
        }
        continue;
      }
      if (start >= 0) {
        words.add(lower.substring(start, i));
        start = -1;
      }
      if (!Character.isWhitespace(c)) {
        words.add(String.valueOf(c));
      }
    }
    if (start >= 0) {
      words.add(lower.substring(start));
    }
    return words;
  }

  /** The ids of {@code text}'s word pieces (no [CLS]/[SEP]). */
  public int[] encode(String text) {
    List<Integer> ids = new ArrayList<>();
    for (String word : words(text)) {
      encodeWord(word, ids);
    }
    return ids.stream().mapToInt(Integer::intValue).toArray();
  }

  private void encodeWord(String word, List<Integer> out) {
    List<Integer> pieces = new ArrayList<>();
    int start = 0;
    while (start < word.length()) {
      int found = -1;
      int end = word.length();
      for (; end > start; end--) {
        String piece = (start == 0 ? "" : WordPieceVocabulary.CONTINUATION)
            + word.substring(start, end);
        found = vocabulary.id(piece);
        if (found >= 0) {
          break;
        }
      }
      if (found < 0) {
        out.add(WordPieceVocabulary.UNK);
        return;
      }
      pieces.add(found);
      start = end;
    }
    out.addAll(pieces);
  }

  /**
   * Text of the ids: pieces joined with spaces, continuation pieces glued to the previous one;
   * special tokens other than [UNK] and [MASK] are dropped. Round-trips {@link #encode} up to
   * case and the spaces around punctuation.
   */
  public String decode(int[] ids) {
    StringBuilder text = new StringBuilder();
    for (int id : ids) {
      if (id == WordPieceVocabulary.PAD || id == WordPieceVocabulary.CLS
          || id == WordPieceVocabulary.SEP) {
        continue;
      }
      String piece = vocabulary.piece(id);
      if (piece.startsWith(WordPieceVocabulary.CONTINUATION) && id > WordPieceVocabulary.MASK) {
        text.append(piece, WordPieceVocabulary.CONTINUATION.length(), piece.length());
      } else {
        if (text.length() > 0) {
          text.append(' ');
        }
        text.append(piece);
      }
    }
    return text.toString();
  }

  /**
   * One fixed-length sequence: [CLS], the pieces (truncated to fit), [SEP], then [PAD]s, as
   * floats into {@code out} from {@code offset}.
   */
  public void encodeSequence(String text, int length, float[] out, int offset) {
    int[] ids = encode(text);
    int n = Math.min(ids.length, length - 2);
    out[offset] = WordPieceVocabulary.CLS;
    for (int i = 0; i < n; i++) {
      out[offset + 1 + i] = ids[i];
    }
    out[offset + 1 + n] = WordPieceVocabulary.SEP;
    for (int i = n + 2; i < length; i++) {
      out[offset + i] = WordPieceVocabulary.PAD;
    }
  }
}
