package io.dssync.data.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import java.util.List;
import org.junit.jupiter.api.Test;

class WordPieceTest {
  private static final List<String> CORPUS = List.of(
      "In the beginning God created the heaven and the earth.",
      "And the earth was without form, and void; and darkness was upon the face of the deep.",
      "And God said, Let there be light: and there was light.",
      "And God saw the light, that it was good: and God divided the light from the darkness.");

  @Test
  void wordsAreLowerCasedAndPunctuationIsSplitOff() {
    assertEquals(List.of("the", "lord", "'", "s", "house", ",", "o", "israel", "!"),
        WordPieceTokenizer.words("The LORD's house,  O Israel!"));
  }

  @Test
  void learningIsDeterministicStartsWithSpecialsAndHonoursTheSize() {
    WordPieceVocabulary a = WordPieceVocabulary.learn(CORPUS, 80);
    WordPieceVocabulary b = WordPieceVocabulary.learn(CORPUS, 80);
    assertEquals(a.pieces(), b.pieces());
    assertEquals(80, a.size());
    assertEquals(WordPieceVocabulary.SPECIALS, a.pieces().subList(0, 5));
    assertEquals(0, a.id("[PAD]"));
    assertEquals(4, a.id("[MASK]"));
    assertTrue(a.id("##e") > 4 && a.id("t") > 4);
    // Frequent words become whole pieces.
    assertTrue(a.id("the") > 0 && a.id("and") > 0, a.pieces().toString());
  }

  @Test
  void aLargeSizeStopsWhenEveryWordIsOnePiece() {
    WordPieceVocabulary v = WordPieceVocabulary.learn(CORPUS, 10_000);
    assertTrue(v.size() < 10_000);
    WordPieceTokenizer t = new WordPieceTokenizer(v);
    for (String word : WordPieceTokenizer.words(String.join(" ", CORPUS))) {
      assertEquals(1, t.encode(word).length, word);
    }
  }

  @Test
  void tooSmallASizeSaysTheMinimum() {
    DsSyncException e =
        assertThrows(DsSyncException.class, () -> WordPieceVocabulary.learn(CORPUS, 10));
    assertTrue(e.getMessage().contains("at least"), e.getMessage());
  }

  @Test
  void encodeDecodeRoundTripsAndUnknownCharactersGiveUnk() {
    WordPieceTokenizer t = new WordPieceTokenizer(WordPieceVocabulary.learn(CORPUS, 60));
    String text = "And God divided the darkness from the light.";
    int[] ids = t.encode(text);
    assertEquals("and god divided the darkness from the light .", t.decode(ids));
    // An unseen word of known letters is split into pieces, not lost.
    int[] unseen = t.encode("greatness");
    assertTrue(unseen.length > 1);
    assertEquals("greatness", t.decode(unseen));
    // A character the corpus never had makes its word [UNK]; the neighbours survive.
    int[] withUnknown = t.encode("the café light");
    assertEquals(WordPieceVocabulary.UNK, withUnknown[1]);
    assertEquals("the [UNK] light", t.decode(withUnknown));
  }

  @Test
  void sequencesStartWithClsEndWithSepAndArePaddedOrTruncated() {
    WordPieceTokenizer t = new WordPieceTokenizer(WordPieceVocabulary.learn(CORPUS, 60));
    float[] out = new float[2 * 8];
    t.encodeSequence("and god", 8, out, 0);
    t.encodeSequence(CORPUS.get(1), 8, out, 8);
    int[] ids = t.encode("and god");
    assertArrayEquals(new float[] {2, ids[0], ids[1], 3, 0, 0, 0, 0},
        java.util.Arrays.copyOf(out, 8));
    assertEquals(2f, out[8]);
    assertEquals(3f, out[15]); // truncated: the last slot is still [SEP]
  }
}
