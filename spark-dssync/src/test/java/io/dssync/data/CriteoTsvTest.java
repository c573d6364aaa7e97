package io.dssync.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.format.ClickLogDataset;
import io.dssync.data.format.FieldLayout;
import io.dssync.errors.DsSyncException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Criteo TSV format on rows this test generates (no Criteo data is used or committed). */
class CriteoTsvTest {
  @TempDir Path tmp;

  private static String row(int label, String ints, String cats) {
    List<String> cols = new ArrayList<>();
    cols.add(Integer.toString(label));
    String[] i = ints.split(",", -1);
    String[] c = cats.split(",", -1);
    for (int f = 0; f < 13; f++) {
      cols.add(f < i.length ? i[f] : "");
    }
    for (int f = 0; f < 26; f++) {
      cols.add(f < c.length ? c[f] : "");
    }
    return String.join("\t", cols);
  }

  @Test
  void logTransformKeepsSmallCountsAndSquaresTheLogOfLargeOnes() {
    assertEquals(-1, CriteoTsv.logBucket(-1));
    assertEquals(2, CriteoTsv.logBucket(2));
    assertEquals(1, CriteoTsv.logBucket(3)); // ln(3)^2 = 1.21
    assertEquals(21, CriteoTsv.logBucket(100)); // ln(100)^2 = 21.2
    assertEquals(429, CriteoTsv.logBucket(1_000_000_000L));
  }

  @Test
  void encodesEveryFieldIntoItsOwnRangeWithBucketZeroForMissing() throws IOException {
    List<String> lines = new ArrayList<>();
    for (int r = 0; r < 20; r++) {
      lines.add(row(r % 3 == 0 ? 1 : 0, r + ",," + (r * 100) + ",5", "68fd1e64,,a" + r));
    }
    Path file = tmp.resolve("train.txt");
    Files.write(file, lines);
    CriteoTsv.Options options = new CriteoTsv.Options(16, 100, 10, 0);
    ClickLogDataset data = CriteoTsv.load(file, options);
    FieldLayout layout = data.layout();
    assertEquals(39, layout.fields());
    assertEquals(13 * 16 + 26 * 100, layout.totalIds());
    assertEquals(layout.totalIds(), data.splits().vocabSize());
    assertEquals(18, data.splits().train().size());
    assertEquals(2, data.splits().test().size()); // rows 9 and 19
    assertEquals(39, data.splits().featureSize());
    assertEquals(2, data.splits().train().numClasses());
    float[] first = java.util.Arrays.copyOf(data.splits().train().features(), 39);
    for (int f = 0; f < 39; f++) {
      int id = (int) first[f];
      assertTrue(id >= layout.offset(f) && id < layout.offset(f) + layout.buckets(f),
          "field " + f + " id " + id);
    }
    assertEquals(layout.offset(1), (int) first[1]); // I2 empty: missing bucket
    assertEquals(layout.offset(14), (int) first[14]); // C2 empty
    assertTrue(first[0] > layout.offset(0)); // I1 = 0 is a value, not missing
    assertEquals(1, data.splits().train().labels()[0]);
    // Counts with the same log bucket share an id: 3 and 4 both give floor(ln^2) = 1.
    assertEquals(CriteoTsv.hash(0, "1"), CriteoTsv.hash(0, Long.toString(CriteoTsv.logBucket(4))));
  }

  @Test
  void readsGzipAndGivesTheSameIds() throws IOException {
    List<String> lines = List.of(row(0, "1,2,3", "aa,bb"), row(1, "7,,9", "cc,,dd"));
    Path plain = tmp.resolve("p.txt");
    Files.write(plain, lines);
    Path gz = tmp.resolve("p.txt.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    CriteoTsv.Options options = CriteoTsv.Options.defaults();
    assertArrayEquals(CriteoTsv.load(plain, options).splits().train().features(),
        CriteoTsv.load(gz, options).splits().train().features());
  }

  @Test
  void badRowsNameTheLineAndTheProblem() throws IOException {
    Path file = tmp.resolve("bad.txt");
    Files.write(file, List.of(row(0, "1", "a"), row(2, "1", "a")));
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> CriteoTsv.load(file, CriteoTsv.Options.defaults()));
    assertTrue(e.getMessage().contains("bad.txt:2") && e.getMessage().contains("'2'"),
        e.getMessage());
    Files.write(file, List.of("1\t2\t3"));
    e = assertThrows(DsSyncException.class,
        () -> CriteoTsv.load(file, CriteoTsv.Options.defaults()));
    assertTrue(e.getMessage().contains("40"), e.getMessage());
    e = assertThrows(DsSyncException.class,
        () -> CriteoTsv.load(tmp.resolve("none.txt"), CriteoTsv.Options.defaults()));
    assertTrue(e.getMessage().contains("kaggle"), e.getMessage());
  }
}
