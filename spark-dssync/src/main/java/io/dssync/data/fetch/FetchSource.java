package io.dssync.data.fetch;

import java.io.IOException;
import java.nio.file.Path;

/** One place a dataset file can come from (an official URL, a package registry's package ...). */
public interface FetchSource extends AutoCloseable {
  /** Where {@code fileName} would come from, for progress lines and error messages. */
  String describe(String fileName);

  /** Writes {@code fileName}'s bytes (compressed or not) to {@code target}, replacing it. */
  void fetch(String fileName, Path target) throws IOException;

  /** Releases temporary files; the default has none. */
  @Override
  default void close() {}
}
