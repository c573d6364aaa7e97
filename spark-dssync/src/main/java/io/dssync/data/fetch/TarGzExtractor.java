package io.dssync.data.fetch;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * Extracts chosen regular files from a .tar.gz (ustar/GNU headers) into a folder, by base name.
 * Only the named files are written, so a hostile archive cannot write outside {@code targetDir}.
 */
public final class TarGzExtractor {
  private static final int BLOCK = 512;

  private TarGzExtractor() {}

  /** Writes each entry whose base name is in {@code wanted} to {@code targetDir/<base name>}. */
  public static void extract(Path archive, Set<String> wanted, Path targetDir) throws IOException {
    Files.createDirectories(targetDir);
    try (InputStream in = new BufferedInputStream(
        new GZIPInputStream(Files.newInputStream(archive), 1 << 16), 1 << 16)) {
      byte[] header = new byte[BLOCK];
      while (in.readNBytes(header, 0, BLOCK) == BLOCK && header[0] != 0) {
        String name = text(header, 0, 100);
        String prefix = text(header, 345, 155);
        long size = Long.parseLong(text(header, 124, 12).trim().isEmpty()
            ? "0" : text(header, 124, 12).trim(), 8);
        char type = (char) header[156];
        String path = prefix.isEmpty() ? name : prefix + "/" + name;
        String base = path.substring(path.lastIndexOf('/') + 1);
        long padded = (size + BLOCK - 1) / BLOCK * BLOCK;
        if ((type == '0' || type == 0) && wanted.contains(base)) {
          try (OutputStream out = Files.newOutputStream(targetDir.resolve(base))) {
            copy(in, out, size);
          }
          skip(in, padded - size);
        } else {
          skip(in, padded);
        }
      }
    }
  }

  private static String text(byte[] header, int offset, int length) {
    int end = offset;
    while (end < offset + length && header[end] != 0) {
      end++;
    }
    return new String(header, offset, end - offset, StandardCharsets.US_ASCII);
  }

  private static void copy(InputStream in, OutputStream out, long size) throws IOException {
    byte[] buffer = new byte[1 << 16];
    long left = size;
    while (left > 0) {
      int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (n < 0) {
        throw new IOException("the archive ends inside a file");
      }
      out.write(buffer, 0, n);
      left -= n;
    }
  }

  private static void skip(InputStream in, long bytes) throws IOException {
    if (bytes > 0) {
      in.skipNBytes(bytes);
    }
  }
}
