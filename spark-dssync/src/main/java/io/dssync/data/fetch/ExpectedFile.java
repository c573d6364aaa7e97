package io.dssync.data.fetch;

import io.dssync.data.format.IdxReader;
import io.dssync.errors.DataErrors;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A dataset file as it must decompress: its byte count and SHA-256. The content is checked, not the
 * archive: mirrors and package registries recompress files (Debian's gzip headers drop the file
 * name), so archive checksums differ between equally good copies.
 */
public record ExpectedFile(String dataset, String name, long size, String sha256) {

  /** The decompressed content of {@code path}, or a DATASET error saying what did not match. */
  byte[] verify(Path path) {
    byte[] content = IdxReader.readContent(path);
    if (content.length != size) {
      throw DataErrors.datasetCorrupt(dataset, path.toString(),
          "it decompresses to " + content.length + " bytes but " + size + " were expected");
    }
    String actual = sha256(content);
    if (!actual.equals(sha256)) {
      throw DataErrors.datasetCorrupt(dataset, path.toString(),
          "SHA-256 of the decompressed content is " + actual + " but " + sha256 + " was expected");
    }
    return content;
  }

  public static String sha256(byte[] content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }
}
