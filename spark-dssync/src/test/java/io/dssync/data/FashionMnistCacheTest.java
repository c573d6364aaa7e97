package io.dssync.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.fetch.FetchSource;
import io.dssync.data.format.IdxReader;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cache behaviour with stand-in sources: a good source copies the real files from the default
 * cache (filled by {@link FashionMnist#load()} through {@link TestData}), a bad one fails or
 * delivers garbage.
 */
class FashionMnistCacheTest {
  private static final String[] FILES = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
      "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};
  private static Path realDir;

  @TempDir Path cache;

  @BeforeAll
  static void fillDefaultCache() {
    TestData.fashionMnist(); // fills the default cache the good source copies from
    realDir = FashionMnist.defaultCacheDir().resolve("fashion-mnist");
  }

  /** Copies real files and records which it was asked for. */
  private static final class CopySource implements FetchSource {
    final List<String> asked = new ArrayList<>();

    @Override
    public String describe(String fileName) {
      return "the test copy of " + fileName;
    }

    @Override
    public void fetch(String fileName, Path target) throws IOException {
      asked.add(fileName);
      Files.copy(realDir.resolve(fileName), target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Writes an HTML page instead of the data, like a captive portal or an error page would. */
  private static final class GarbageSource implements FetchSource {
    int calls;

    @Override
    public String describe(String fileName) {
      return "a garbage mirror";
    }

    @Override
    public void fetch(String fileName, Path target) throws IOException {
      calls++;
      Files.writeString(target, "<html>Not Found</html>");
    }
  }

  private static final FetchSource UNREACHABLE = new FetchSource() {
    @Override
    public String describe(String fileName) {
      return "an unreachable host";
    }

    @Override
    public void fetch(String fileName, Path target) throws IOException {
      throw new IOException("connect timed out");
    }
  };

  private Path dir() {
    return cache.resolve("fashion-mnist");
  }

  /** Copies the four real files into the temp cache, then truncates {@code corrupt}. */
  private Path cacheWithTruncated(String corrupt) throws IOException {
    Files.createDirectories(dir());
    for (String f : FILES) {
      Files.copy(realDir.resolve(f + ".gz"), dir().resolve(f + ".gz"));
    }
    Path bad = dir().resolve(corrupt + ".gz");
    byte[] bytes = Files.readAllBytes(bad);
    Files.write(bad, java.util.Arrays.copyOf(bytes, bytes.length - 100));
    return bad;
  }

  @Test
  void truncatedCachedFileIsReplacedByAVerifiedCopy() throws IOException {
    Path bad = cacheWithTruncated("t10k-labels-idx1-ubyte");
    CopySource good = new CopySource();
    DatasetSplits splits = FashionMnist.load(cache, List.of(good));
    assertEquals(List.of("t10k-labels-idx1-ubyte.gz"), good.asked);
    assertEquals(10_000, splits.test().size());
    assertArrayEquals(Files.readAllBytes(realDir.resolve("t10k-labels-idx1-ubyte.gz")),
        Files.readAllBytes(bad));
    assertNoPartFilesLeft();
  }

  @Test
  void truncatedCachedFileIsReportedNotUsedWhenNoSourceDelivers() throws IOException {
    Path bad = cacheWithTruncated("train-labels-idx1-ubyte");
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> FashionMnist.load(cache, List.of(UNREACHABLE)));
    assertEquals(ErrorKind.DATASET, e.kind());
    String m = e.getMessage();
    assertTrue(m.contains("cached " + bad), m);
    assertTrue(m.contains("an unreachable host (IOException: connect timed out)"), m);
    assertTrue(m.contains(FashionMnist.OFFICIAL_URL), m);
    assertTrue(m.contains("apt-get install dataset-fashion-mnist"), m);
    assertTrue(m.contains("DSSYNC_DATA_DIR"), m);
    assertNoPartFilesLeft();
  }

  @Test
  void sourceDeliveringWrongContentIsSkippedAndNeverCached() throws IOException {
    GarbageSource garbage = new GarbageSource();
    CopySource good = new CopySource();
    DatasetSplits splits = FashionMnist.load(cache, List.of(garbage, good));
    assertEquals(60_000, splits.train().size());
    // Tried for the first file only: a source that failed once is skipped for the rest.
    assertEquals(1, garbage.calls);
    assertEquals(4, good.asked.size());
    for (String f : FILES) {
      assertArrayEquals(Files.readAllBytes(realDir.resolve(f + ".gz")),
          Files.readAllBytes(dir().resolve(f + ".gz")));
    }
    assertNoPartFilesLeft();
  }

  @Test
  void uncompressedCopiesInTheCacheAreAccepted() throws IOException {
    Files.createDirectories(dir());
    for (String f : FILES) {
      Files.write(dir().resolve(f), IdxReader.readContent(realDir.resolve(f + ".gz")));
    }
    DatasetSplits splits = FashionMnist.load(cache, List.of(UNREACHABLE));
    assertEquals(10_000, splits.test().size());
  }

  private void assertNoPartFilesLeft() throws IOException {
    try (Stream<Path> files = Files.list(dir())) {
      assertFalse(files.anyMatch(p -> p.getFileName().toString().endsWith(".part")));
    }
  }
}
