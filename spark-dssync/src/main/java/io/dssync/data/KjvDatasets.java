package io.dssync.data;

import io.dssync.data.fetch.DatasetCacheDir;
import io.dssync.data.text.MaskedLm;
import io.dssync.data.text.WordPieceTokenizer;
import io.dssync.data.text.WordPieceVocabulary;
import io.dssync.errors.Errors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Text datasets from the King James Bible (see {@link KingJamesBible} for the split), tokenized
 * with a {@link WordPieceVocabulary} learned from the training verses of the whole Bible. One
 * example per verse: {@code [CLS] pieces [SEP] [PAD]...}, truncated to the sequence length.
 *
 * <ul>
 *   <li>{@code kjv-mlm}: masked-LM over all 66 books ({@link MaskedLm}; channels 2).
 *   <li>{@code kjv-books}: which of four books a verse is from: Genesis (narrative), Psalms
 *       (poetry), Proverbs (wisdom sayings) and Matthew (gospel). Each has its own vocabulary and
 *       style ("begat", "selah", "my son", "jesus"), so a small BERT learns it in minutes; the
 *       majority class (Psalms) is 36% of the test set
 *       (5,489 train and 491 test verses).
 * </ul>
 */
public final class KjvDatasets {
  public static final String MLM_NAME = "kjv-mlm";
  public static final String BOOKS_NAME = "kjv-books";
  /** Book codes as the bible program prints them; the class index is the position here. */
  public static final List<String> BOOKS = List.of("Ge", "Psa", "Prv", "Mat");
  public static final List<String> BOOK_NAMES = List.of("Genesis", "Psalms", "Proverbs", "Matthew");
  public static final int DEFAULT_VOCAB_SIZE = 4000;
  public static final int DEFAULT_SEQUENCE_LENGTH = 64;
  public static final long DEFAULT_MASK_SEED = 17;
  /** Learned vocabularies by size: the verses are always the same verified text. */
  private static final Map<Integer, WordPieceVocabulary> LEARNED = new ConcurrentHashMap<>();

  private KjvDatasets() {}

  /** The vocabulary every KJV dataset uses: learned from the training verses. */
  public static WordPieceVocabulary vocabulary(List<Verse> verses, int vocabSize) {
    List<String> texts = new ArrayList<>();
    for (Verse verse : verses) {
      if (!KingJamesBible.isTest(verse)) {
        texts.add(verse.text());
      }
    }
    return WordPieceVocabulary.learn(texts, vocabSize);
  }

  /** The tokenizer the KJV datasets of this vocabulary size use (learned once per JVM). */
  public static WordPieceTokenizer tokenizer(Path cacheDir, int vocabSize) {
    return new WordPieceTokenizer(learned(KingJamesBible.verses(cacheDir), vocabSize));
  }

  private static WordPieceVocabulary learned(List<Verse> verses, int vocabSize) {
    return LEARNED.computeIfAbsent(vocabSize, size -> vocabulary(verses, size));
  }

  public static DatasetSplits maskedLm() {
    return maskedLm(DatasetCacheDir.defaultDir(), DEFAULT_VOCAB_SIZE, DEFAULT_SEQUENCE_LENGTH,
        DEFAULT_MASK_SEED);
  }

  /** Masked-LM splits; train and test are masked with different seeds derived from {@code seed}. */
  public static DatasetSplits maskedLm(Path cacheDir, int vocabSize, int length, long seed) {
    requireLength(length);
    List<Verse> verses = KingJamesBible.verses(cacheDir);
    WordPieceTokenizer tokenizer = new WordPieceTokenizer(learned(verses, vocabSize));
    int vocab = tokenizer.vocabulary().size();
    List<Verse> train = new ArrayList<>();
    List<Verse> test = new ArrayList<>();
    for (Verse verse : verses) {
      (KingJamesBible.isTest(verse) ? test : train).add(verse);
    }
    return new DatasetSplits(masked(train, tokenizer, length, seed),
        masked(test, tokenizer, length, seed + 1), 2, 1, length, MLM_NAME, vocab);
  }

  private static LabeledArrays masked(List<Verse> verses, WordPieceTokenizer tokenizer,
      int length, long seed) {
    float[] ids = sequences(verses, tokenizer, length);
    int vocab = tokenizer.vocabulary().size();
    return new LabeledArrays(MaskedLm.mask(ids, length, vocab, seed), new int[verses.size()],
        2 * length, vocab);
  }

  public static DatasetSplits books() {
    return books(DatasetCacheDir.defaultDir(), DEFAULT_VOCAB_SIZE, DEFAULT_SEQUENCE_LENGTH);
  }

  /** Book classification over {@link #BOOKS}; label = index in {@link #BOOKS}. */
  public static DatasetSplits books(Path cacheDir, int vocabSize, int length) {
    requireLength(length);
    List<Verse> verses = KingJamesBible.verses(cacheDir);
    WordPieceTokenizer tokenizer = new WordPieceTokenizer(learned(verses, vocabSize));
    List<Verse> train = new ArrayList<>();
    List<Verse> test = new ArrayList<>();
    for (Verse verse : verses) {
      if (BOOKS.contains(verse.book())) {
        (KingJamesBible.isTest(verse) ? test : train).add(verse);
      }
    }
    return new DatasetSplits(labeled(train, tokenizer, length), labeled(test, tokenizer, length),
        1, 1, length, BOOKS_NAME, tokenizer.vocabulary().size());
  }

  private static LabeledArrays labeled(List<Verse> verses, WordPieceTokenizer tokenizer,
      int length) {
    int[] labels = new int[verses.size()];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = BOOKS.indexOf(verses.get(i).book());
    }
    return new LabeledArrays(sequences(verses, tokenizer, length), labels, length, BOOKS.size());
  }

  static float[] sequences(List<Verse> verses, WordPieceTokenizer tokenizer, int length) {
    float[] ids = new float[verses.size() * length];
    for (int i = 0; i < verses.size(); i++) {
      tokenizer.encodeSequence(verses.get(i).text(), length, ids, i * length);
    }
    return ids;
  }

  private static void requireLength(int length) {
    if (length < 8) {
      throw Errors.invalidSetting("sequence length", length, "it must be at least 8",
          "Use 64 (most verses fit) or 128 (all but a few fit).");
    }
  }
}
