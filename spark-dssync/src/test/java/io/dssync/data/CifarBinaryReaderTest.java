package io.dssync.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.fetch.FetchSource;
import io.dssync.data.fetch.TarGzExtractor;
import io.dssync.data.format.CifarBinaryReader;
import io.dssync.errors.DsSyncException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CIFAR-10's binary format, on files this test writes (the real data is not obtainable here). */
class CifarBinaryReaderTest {
  @TempDir Path tmp;

  /** A record whose label is {@code label} and whose pixel p is (seed + p) mod 256. */
  private static byte[] records(int count, int firstLabel) {
    byte[] bytes = new byte[count * CifarBinaryReader.RECORD_BYTES];
    for (int r = 0; r < count; r++) {
      int base = r * CifarBinaryReader.RECORD_BYTES;
      bytes[base] = (byte) ((firstLabel + r) % 10);
      for (int p = 0; p < CifarBinaryReader.PIXELS; p++) {
        bytes[base + 1 + p] = (byte) (firstLabel * 7 + r + p);
      }
    }
    return bytes;
  }

  @Test
  void parsesLabelsAndChannelMajorPixelsScaledToUnitRange() {
    LabeledArrays data = CifarBinaryReader.parse(records(3, 4), "t.bin", 10);
    assertEquals(3, data.size());
    assertEquals(3072, data.featureSize());
    assertArrayEquals(new float[] {4, 5, 6}, data.labels());
    // Record 1, pixel 1024 = the first green value: (4*7 + 1 + 1024) mod 256 = 29.
    assertEquals(29 / 255f, data.features()[3072 + 1024]);
    assertEquals(28 / 255f, data.features()[0]);
  }

  @Test
  void rejectsTruncatedFilesAndLabelsOutOfRange() {
    byte[] truncated = java.util.Arrays.copyOf(records(2, 0), 3073 + 100);
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> CifarBinaryReader.parse(truncated, "short.bin", 10));
    assertTrue(e.getMessage().contains("short.bin") && e.getMessage().contains("3073"),
        e.getMessage());
    byte[] bad = records(1, 0);
    bad[0] = 10;
    assertThrows(DsSyncException.class, () -> CifarBinaryReader.parse(bad, "bad.bin", 10));
  }

  @Test
  void loadsFiveTrainBatchesAndTheTestBatchFromTheArchiveFolder() throws IOException {
    Path folder = tmp.resolve("cifar-10").resolve("cifar-10-batches-bin");
    Files.createDirectories(folder);
    for (int i = 0; i < 5; i++) {
      Files.write(folder.resolve(Cifar10.TRAIN_FILES.get(i)), records(2, i));
    }
    Files.write(folder.resolve(Cifar10.TEST_FILE), records(2, 9));
    DatasetSplits splits = Cifar10.load(tmp, List.of(), 2);
    assertEquals(10, splits.train().size());
    assertEquals(2, splits.test().size());
    assertEquals(3, splits.channels());
    assertEquals(32, splits.height());
    assertEquals(0, splits.vocabSize());
    assertArrayEquals(new float[] {0, 1, 1, 2, 2, 3, 3, 4, 4, 5}, splits.train().labels());
    assertArrayEquals(new float[] {9, 0}, splits.test().labels());
    // A batch of the wrong size is reported with the file and the expected size.
    DsSyncException e = assertThrows(DsSyncException.class, () -> Cifar10.load(tmp, List.of(), 3));
    assertTrue(e.getMessage().contains("data_batch_1.bin"), e.getMessage());
  }

  @Test
  void missingDataNamesTheOfficialUrl() {
    DsSyncException e = assertThrows(DsSyncException.class, () -> Cifar10.load(tmp, List.of(), 2));
    assertTrue(e.getMessage().contains(Cifar10.OFFICIAL_BASE_URL + Cifar10.ARCHIVE),
        e.getMessage());
  }

  @Test
  void anArchiveWithTheWrongChecksumIsNotUsed() {
    FetchSource fake = new FetchSource() {
      @Override
      public String describe(String fileName) {
        return "fake:" + fileName;
      }

      @Override
      public void fetch(String fileName, Path target) throws IOException {
        Files.write(target, new byte[] {1, 2, 3});
      }
    };
    DsSyncException e =
        assertThrows(DsSyncException.class, () -> Cifar10.load(tmp, List.of(fake), 2));
    assertTrue(e.getMessage().contains("MD5"), e.getMessage());
  }

  @Test
  void extractsTheBatchFilesFromATarGz() throws Exception {
    Path src = tmp.resolve("src").resolve("cifar-10-batches-bin");
    Files.createDirectories(src);
    Files.write(src.resolve("data_batch_1.bin"), records(1, 3));
    Files.writeString(src.resolve("readme.html"), "x");
    Path archive = tmp.resolve("a.tar.gz");
    Process tar = new ProcessBuilder("tar", "-czf", archive.toString(), "-C",
        tmp.resolve("src").toString(), "cifar-10-batches-bin").inheritIO().start();
    assertEquals(0, tar.waitFor());
    Path out = tmp.resolve("out");
    TarGzExtractor.extract(archive, Set.of("data_batch_1.bin"), out);
    assertArrayEquals(records(1, 3), Files.readAllBytes(out.resolve("data_batch_1.bin")));
    assertTrue(Files.notExists(out.resolve("readme.html")));
  }
}
