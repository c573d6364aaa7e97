package io.dssync.data.fetch;

import io.dssync.data.format.IdxReader;
import io.dssync.errors.DataErrors;
import io.dssync.errors.DsSyncException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One dataset's folder in the cache. A file is used only after its decompressed content verified;
 * otherwise each source is tried in order, and the first verified download is moved into place
 * atomically, so a crash or a concurrent loader never leaves a half-written file under the final
 * name. A source that fails once is skipped for the remaining files of the same load (one
 * unreachable host should cost one timeout, not one per file).
 */
public final class DatasetCache {
  private final Path dir;
  private final List<FetchSource> sources;
  private final String howToGet;
  private final Set<FetchSource> failed = new HashSet<>();
  private final List<String> tried = new ArrayList<>();
  /** Cached files that failed verification; removed once a verified copy is in place. */
  private final List<Path> corrupt = new ArrayList<>();

  public DatasetCache(Path dir, List<FetchSource> sources, String howToGet) {
    this.dir = dir;
    this.sources = sources;
    this.howToGet = howToGet;
  }

  public Path dir() {
    return dir;
  }

  /** The verified decompressed content of {@code file}, from the cache or freshly fetched. */
  public byte[] obtain(ExpectedFile file) {
    byte[] cached = fromCache(file);
    if (cached != null) {
      return cached;
    }
    for (FetchSource source : sources) {
      if (failed.contains(source)) {
        continue;
      }
      byte[] fetched = fetchInto(file, source);
      if (fetched != null) {
        return fetched;
      }
      failed.add(source);
    }
    throw DataErrors.datasetUnavailable(file.dataset(), String.join("; ", tried), howToGet);
  }

  private byte[] fromCache(ExpectedFile file) {
    // The fetched archive is stored as <name>.gz; a user's copy may also be uncompressed (<name>).
    for (Path candidate : List.of(dir.resolve(file.name() + ".gz"), dir.resolve(file.name()))) {
      if (!Files.isRegularFile(candidate)) {
        continue;
      }
      try {
        byte[] content = file.verify(candidate);
        log("using " + candidate);
        return content;
      } catch (DsSyncException | UncheckedIOException e) {
        log("ignoring cached " + candidate + ": " + e.getMessage());
        tried.add("cached " + candidate + " (" + e.getMessage() + ")");
        corrupt.add(candidate);
      }
    }
    return null;
  }

  private byte[] fetchInto(ExpectedFile file, FetchSource source) {
    String from = source.describe(file.name() + ".gz");
    log("fetching " + file.name() + ".gz from " + from);
    Path part = null;
    try {
      Files.createDirectories(dir);
      part = Files.createTempFile(dir, "." + file.name() + "-", ".part");
      source.fetch(file.name() + ".gz", part);
      byte[] content = file.verify(part);
      Path target = dir.resolve(file.name() + (isGzip(part) ? ".gz" : ""));
      moveIntoPlace(part, target);
      log("using " + target);
      for (Path bad : corrupt) {
        if (!bad.equals(target)) {
          deleteQuietly(bad); // else the next load would log it as corrupt again
        }
      }
      corrupt.clear();
      return content;
    } catch (IOException | DsSyncException | UncheckedIOException e) {
      log("fetching " + file.name() + ".gz from " + from + " failed: " + describe(e));
      tried.add(from + " (" + describe(e) + ")");
      return null;
    } finally {
      deleteQuietly(part);
    }
  }

  /** Our errors explain themselves; JDK ones (UnknownHostException: host) need their type. */
  private static String describe(Exception e) {
    return e instanceof DsSyncException
        ? e.getMessage()
        : e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  private static void moveIntoPlace(Path part, Path target) throws IOException {
    try {
      Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static boolean isGzip(Path path) throws IOException {
    try (InputStream in = Files.newInputStream(path)) {
      return IdxReader.isGzip(in.readNBytes(2));
    }
  }

  public static void deleteQuietly(Path path) {
    try {
      if (path != null) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      log("could not delete " + path + ": " + e.getMessage());
    }
  }

  private static void log(String line) {
    System.err.println("dssync datasets: " + line);
  }
}
