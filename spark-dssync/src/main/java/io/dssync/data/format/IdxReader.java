package io.dssync.data.format;

import io.dssync.errors.DataErrors;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Reads IDX files (the MNIST family's format): a big-endian header of a magic number and one
 * 32-bit size per dimension, then unsigned bytes. Files may be gzip-compressed; compression is
 * detected from the content (gzip magic 0x1f8b), not from the file name, because mirrors and
 * users' copies are named inconsistently.
 */
public final class IdxReader {
  /** Magic number of a 3-dimensional unsigned-byte IDX file (images). */
  public static final int IMAGES_MAGIC = 0x00000803;
  /** Magic number of a 1-dimensional unsigned-byte IDX file (labels). */
  public static final int LABELS_MAGIC = 0x00000801;

  private IdxReader() {}

  /** {@code count} images of {@code rows x cols} unsigned bytes each, row-major. */
  public record Images(int count, int rows, int cols, byte[] pixels) {}

  /** Reads an image file (gzip or raw). */
  public static Images readImages(Path file) {
    return parseImages(readContent(file), file.toString());
  }

  /** Reads a label file (gzip or raw); one unsigned byte per example. */
  public static byte[] readLabels(Path file) {
    return parseLabels(readContent(file), file.toString());
  }

  /** The file's bytes, decompressed when the file is gzip. */
  public static byte[] readContent(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      return isGzip(bytes) ? gunzip(bytes, file) : bytes;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** Parses decompressed image-file content; {@code fileName} names the file in errors. */
  public static Images parseImages(byte[] content, String fileName) {
    ByteBuffer header = header(content, 16, IMAGES_MAGIC, fileName);
    int count = dimension(header, "image count", fileName);
    int rows = dimension(header, "rows", fileName);
    int cols = dimension(header, "columns", fileName);
    requireBody(content, 16, (long) count * rows * cols, count + " images of " + rows + "x" + cols,
        fileName);
    byte[] pixels = new byte[count * rows * cols];
    System.arraycopy(content, 16, pixels, 0, pixels.length);
    return new Images(count, rows, cols, pixels);
  }

  /** Parses decompressed label-file content; {@code fileName} names the file in errors. */
  public static byte[] parseLabels(byte[] content, String fileName) {
    ByteBuffer header = header(content, 8, LABELS_MAGIC, fileName);
    int count = dimension(header, "label count", fileName);
    requireBody(content, 8, count, count + " labels", fileName);
    byte[] labels = new byte[count];
    System.arraycopy(content, 8, labels, 0, count);
    return labels;
  }

  public static boolean isGzip(byte[] bytes) {
    return bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b;
  }

  private static byte[] gunzip(byte[] bytes, Path file) {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes), 1 << 16)) {
      return in.readAllBytes();
    } catch (IOException e) {
      // A truncated or damaged download: report it as corruption so the caller fetches again.
      throw DataErrors.datasetCorrupt("IDX", file.toString(),
          "gzip data is damaged (" + e.getMessage() + ")");
    }
  }

  private static ByteBuffer header(byte[] content, int headerBytes, int magic, String fileName) {
    if (content.length < headerBytes) {
      throw DataErrors.datasetCorrupt("IDX", fileName, "the file holds " + content.length
          + " bytes, fewer than its " + headerBytes + "-byte header");
    }
    ByteBuffer header = ByteBuffer.wrap(content, 0, headerBytes); // big-endian by default
    int actual = header.getInt();
    if (actual != magic) {
      throw DataErrors.datasetCorrupt("IDX", fileName, String.format(
          "magic number is 0x%08x but 0x%08x (%d) was expected", actual, magic, magic));
    }
    return header;
  }

  private static int dimension(ByteBuffer header, String what, String fileName) {
    int value = header.getInt();
    if (value < 0) {
      throw DataErrors.datasetCorrupt("IDX", fileName, what + " is negative (" + value + ")");
    }
    return value;
  }

  private static void requireBody(byte[] content, int headerBytes, long expected, String what,
      String fileName) {
    long actual = content.length - (long) headerBytes;
    if (actual != expected) {
      throw DataErrors.datasetCorrupt("IDX", fileName, "the header announces " + what + " = "
          + expected + " data bytes but the file holds " + actual);
    }
  }
}
