package io.dssync.data.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Format unit tests on tiny generated IDX files (generated data: they test the format only). */
class IdxReaderTest {
  @TempDir Path dir;

  private static byte[] idx(int magic, int[] dims, int bodyBytes) {
    ByteBuffer b = ByteBuffer.allocate(4 + 4 * dims.length + bodyBytes);
    b.putInt(magic);
    for (int d : dims) {
      b.putInt(d);
    }
    for (int i = 0; i < bodyBytes; i++) {
      b.put((byte) (i * 7));
    }
    return b.array();
  }

  private static byte[] gzip(byte[] raw) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(raw);
    }
    return out.toByteArray();
  }

  private Path write(String name, byte[] bytes) throws IOException {
    return Files.write(dir.resolve(name), bytes);
  }

  @Test
  void readsRawAndGzipImagesIdentically() throws IOException {
    byte[] raw = idx(IdxReader.IMAGES_MAGIC, new int[] {3, 2, 4}, 24);
    IdxReader.Images plain = IdxReader.readImages(write("a-idx3-ubyte", raw));
    // Named without .gz on purpose: compression is detected from the content.
    IdxReader.Images packed = IdxReader.readImages(write("b-idx3-ubyte", gzip(raw)));
    assertEquals(3, plain.count());
    assertEquals(2, plain.rows());
    assertEquals(4, plain.cols());
    assertArrayEquals(Arrays.copyOfRange(raw, 16, 40), plain.pixels());
    assertArrayEquals(plain.pixels(), packed.pixels());
  }

  @Test
  void readsLabels() throws IOException {
    byte[] raw = idx(IdxReader.LABELS_MAGIC, new int[] {5}, 5);
    assertArrayEquals(Arrays.copyOfRange(raw, 8, 13), IdxReader.readLabels(write("l.gz", gzip(raw))));
  }

  @Test
  void rejectsWrongMagicNamingTheFile() throws IOException {
    Path file = write("labels-as-images", idx(IdxReader.LABELS_MAGIC, new int[] {1, 1, 1}, 1));
    DsSyncException e = assertThrows(DsSyncException.class, () -> IdxReader.readImages(file));
    assertEquals(ErrorKind.DATASET, e.kind());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("magic number is 0x00000801 but 0x00000803"), e.getMessage());
  }

  @Test
  void rejectsShortImageFileWithBothByteCounts() throws IOException {
    Path file = write("short", idx(IdxReader.IMAGES_MAGIC, new int[] {2, 3, 3}, 17));
    DsSyncException e = assertThrows(DsSyncException.class, () -> IdxReader.readImages(file));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("18 data bytes but the file holds 17"), e.getMessage());
  }

  @Test
  void rejectsTrailingBytes() throws IOException {
    Path file = write("long", idx(IdxReader.LABELS_MAGIC, new int[] {2}, 3));
    DsSyncException e = assertThrows(DsSyncException.class, () -> IdxReader.readLabels(file));
    assertTrue(e.getMessage().contains("2 data bytes but the file holds 3"), e.getMessage());
  }

  @Test
  void rejectsFileShorterThanItsHeader() throws IOException {
    Path file = write("stub", new byte[] {0, 0, 8});
    DsSyncException e = assertThrows(DsSyncException.class, () -> IdxReader.readLabels(file));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("fewer than its 8-byte header"), e.getMessage());
  }

  @Test
  void rejectsTruncatedGzipNamingTheFile() throws IOException {
    byte[] packed = gzip(idx(IdxReader.LABELS_MAGIC, new int[] {100}, 100));
    Path file = write("cut.gz", Arrays.copyOf(packed, packed.length / 2));
    DsSyncException e = assertThrows(DsSyncException.class, () -> IdxReader.readLabels(file));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("gzip data is damaged"), e.getMessage());
  }
}
