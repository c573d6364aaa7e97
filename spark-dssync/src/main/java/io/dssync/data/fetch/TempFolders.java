package io.dssync.data.fetch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Helpers for the temporary folders fetch sources unpack packages into. */
public final class TempFolders {
  private TempFolders() {}

  /** The first entry of {@code dir} matching {@code glob} (e.g. "*.deb"), or null. */
  static Path findFirst(Path dir, String glob) throws IOException {
    try (DirectoryStream<Path> matches = Files.newDirectoryStream(dir, glob)) {
      for (Path match : matches) {
        return match;
      }
    }
    return null;
  }

  /** Removes {@code dir} and everything below it; a failure is logged, not thrown. */
  public static void deleteTree(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      System.err.println("dssync: could not remove temporary folder " + dir + ": " + e);
    }
  }
}
