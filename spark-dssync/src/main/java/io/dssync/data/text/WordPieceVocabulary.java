package io.dssync.data.text;

import io.dssync.errors.Errors;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A WordPiece vocabulary (BERT's convention: a piece that continues a word starts with "##"),
 * learned from a corpus by byte-pair-style merges: start from single characters and repeatedly
 * add the most frequent adjacent pair of pieces as a new piece until the vocabulary has the
 * requested size. Ties are broken by the pieces' text, so the same corpus and size always give
 * the same vocabulary.
 *
 * <p>Ids 0..4 are the special tokens [PAD], [UNK], [CLS], [SEP], [MASK]; then the characters
 * (sorted), then the merged pieces in the order they were learned.
 */
public final class WordPieceVocabulary implements Serializable {
  public static final int PAD = 0;
  public static final int UNK = 1;
  public static final int CLS = 2;
  public static final int SEP = 3;
  public static final int MASK = 4;
  public static final List<String> SPECIALS = List.of("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]");
  public static final String CONTINUATION = "##";

  private final List<String> pieces;
  private final Map<String, Integer> ids;

  private WordPieceVocabulary(List<String> pieces) {
    this.pieces = List.copyOf(pieces);
    this.ids = new HashMap<>();
    for (int i = 0; i < pieces.size(); i++) {
      ids.put(pieces.get(i), i);
    }
  }

  /** A vocabulary of exactly the given pieces (specials first); for tests and saved vocabularies. */
  public static WordPieceVocabulary of(List<String> pieces) {
    if (pieces.size() < SPECIALS.size() || !pieces.subList(0, SPECIALS.size()).equals(SPECIALS)) {
      throw Errors.invalidSetting("vocabulary", pieces.subList(0, Math.min(5, pieces.size())),
          "it must start with " + SPECIALS, "Put the special tokens first, in that order.");
    }
    return new WordPieceVocabulary(pieces);
  }

  /**
   * Learns a vocabulary of at most {@code size} pieces from the words of {@code texts} (as
   * {@link WordPieceTokenizer#words} splits them). Smaller when the corpus runs out of pairs.
   */
  public static WordPieceVocabulary learn(Iterable<String> texts, int size) {
    Map<String, Integer> wordCounts = new TreeMap<>(); // sorted: a deterministic word order
    for (String text : texts) {
      for (String word : WordPieceTokenizer.words(text)) {
        wordCounts.merge(word, 1, Integer::sum);
      }
    }
    Set<String> alphabet = new java.util.TreeSet<>();
    for (String word : wordCounts.keySet()) {
      for (int i = 0; i < word.length(); i++) {
        alphabet.add(symbolAt(word, i));
      }
    }
    int minSize = SPECIALS.size() + alphabet.size();
    if (size < minSize) {
      throw Errors.invalidSetting("vocabulary size", size, "the corpus needs at least " + minSize
          + " ids (5 special tokens + " + alphabet.size() + " characters)",
          "Use a size of at least " + minSize + " (2000-8000 suits a small BERT).");
    }
    List<String> pieces = new ArrayList<>(SPECIALS);
    pieces.addAll(alphabet);
    new PairMerger(wordCounts, pieces).mergeUntil(size);
    return new WordPieceVocabulary(pieces);
  }

  private static String symbolAt(String word, int i) {
    String c = word.substring(i, i + 1);
    return i == 0 ? c : CONTINUATION + c;
  }

  public int size() {
    return pieces.size();
  }

  /** The piece's id, or -1 when it is not in the vocabulary. */
  public int id(String piece) {
    Integer id = ids.get(piece);
    return id == null ? -1 : id;
  }

  public String piece(int id) {
    return pieces.get(id);
  }

  public List<String> pieces() {
    return pieces;
  }

  /**
   * The merge loop. Pair counts are kept incrementally (a merge only recounts the words that
   * contain the merged pair) and the best pair comes from a heap with lazy deletion (an entry
   * whose count is no longer the pair's count is skipped), which keeps learning thousands of
   * pieces to about a second.
   */
  private static final class PairMerger {
    private final List<int[]> words = new ArrayList<>();
    private final List<Integer> counts = new ArrayList<>();
    private final List<String> pieces;
    private final Map<String, Integer> symbolIds = new HashMap<>();
    private final Map<Long, Long> pairCounts = new HashMap<>();
    private final Map<Long, Set<Integer>> pairWords = new HashMap<>();
    private final java.util.PriorityQueue<long[]> heap =
        new java.util.PriorityQueue<>(this::compareCandidates);
    private final Set<Long> touched = new HashSet<>();

    PairMerger(Map<String, Integer> wordCounts, List<String> pieces) {
      this.pieces = pieces;
      for (int i = 0; i < pieces.size(); i++) {
        symbolIds.put(pieces.get(i), i);
      }
      for (Map.Entry<String, Integer> e : wordCounts.entrySet()) {
        String word = e.getKey();
        int[] symbols = new int[word.length()];
        for (int i = 0; i < word.length(); i++) {
          symbols[i] = symbolIds.get(symbolAt(word, i));
        }
        words.add(symbols);
        counts.add(e.getValue());
        addPairs(words.size() - 1, +1);
      }
      pushTouched();
    }

    void mergeUntil(int size) {
      while (pieces.size() < size) {
        long best = bestPair();
        if (best < 0) {
          return; // every word is a single piece
        }
        int left = (int) (best >>> 32);
        int right = (int) best;
        String merged = pieces.get(left) + pieces.get(right).substring(
            pieces.get(right).startsWith(CONTINUATION) ? CONTINUATION.length() : 0);
        Integer mergedId = symbolIds.get(merged);
        if (mergedId == null) {
          // The same text can arise from two different splits; it is one piece.
          mergedId = pieces.size();
          pieces.add(merged);
          symbolIds.put(merged, mergedId);
        }
        for (int w : new ArrayList<>(pairWords.getOrDefault(best, Collections.emptySet()))) {
          addPairs(w, -1);
          words.set(w, replace(words.get(w), left, right, mergedId));
          addPairs(w, +1);
        }
        pairCounts.remove(best);
        pairWords.remove(best);
        pushTouched();
      }
    }

    private void pushTouched() {
      for (long pair : touched) {
        Long count = pairCounts.get(pair);
        if (count != null) {
          heap.add(new long[] {pair, count});
        }
      }
      touched.clear();
    }

    /** The most frequent pair; ties go to the smaller (left text, right text). -1 if none. */
    private long bestPair() {
      while (!heap.isEmpty()) {
        long[] top = heap.peek();
        Long count = pairCounts.get(top[0]);
        if (count != null && count == top[1]) {
          return top[0];
        }
        heap.poll(); // stale: the pair's count changed since this entry was pushed
      }
      return -1;
    }

    /** Higher count first, then (left text, right text) in ascending order. */
    private int compareCandidates(long[] a, long[] b) {
      if (a[1] != b[1]) {
        return Long.compare(b[1], a[1]);
      }
      int c = pieces.get((int) (a[0] >>> 32)).compareTo(pieces.get((int) (b[0] >>> 32)));
      return c != 0 ? c : pieces.get((int) a[0]).compareTo(pieces.get((int) b[0]));
    }

    private void addPairs(int w, int sign) {
      int[] symbols = words.get(w);
      long count = counts.get(w);
      for (int i = 0; i + 1 < symbols.length; i++) {
        long pair = ((long) symbols[i] << 32) | (symbols[i + 1] & 0xffffffffL);
        long updated = pairCounts.getOrDefault(pair, 0L) + sign * count;
        touched.add(pair);
        if (updated == 0) {
          pairCounts.remove(pair);
          pairWords.remove(pair);
        } else {
          pairCounts.put(pair, updated);
          if (sign > 0) {
            pairWords.computeIfAbsent(pair, k -> new HashSet<>()).add(w);
          }
        }
      }
    }

    private static int[] replace(int[] symbols, int left, int right, int merged) {
      int[] out = new int[symbols.length];
      int n = 0;
      for (int i = 0; i < symbols.length; i++) {
        if (i + 1 < symbols.length && symbols[i] == left && symbols[i + 1] == right) {
          out[n++] = merged;
          i++;
        } else {
          out[n++] = symbols[i];
        }
      }
      return java.util.Arrays.copyOf(out, n);
    }
  }
}
