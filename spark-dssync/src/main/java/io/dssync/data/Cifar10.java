package io.dssync.data;

import io.dssync.data.fetch.DatasetCache;
import io.dssync.data.fetch.DatasetCacheDir;
import io.dssync.data.fetch.FetchSource;
import io.dssync.data.fetch.HttpSource;
import io.dssync.data.fetch.TarGzExtractor;
import io.dssync.data.format.CifarBinaryReader;
import io.dssync.errors.DataErrors;
import io.dssync.errors.DsSyncException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * CIFAR-10 (Krizhevsky, 2009): 50,000 training and 10,000 test colour 32x32 images of 10 classes,
 * in the binary version's six batch files ({@link CifarBinaryReader}). Examples are
 * {@code 3 x 32 x 32} floats in [0, 1], like the other image datasets.
 *
 * <p>Files are looked for in {@code <cacheDir>/cifar-10/} (or its {@code cifar-10-batches-bin/}
 * subfolder, as the archive unpacks). When any is missing, the official archive is downloaded,
 * its MD5 (the checksum the authors publish) is verified and the six files are extracted. No
 * package registry ships CIFAR-10, so there is no fallback source.
 */
public final class Cifar10 {
  public static final String NAME = "cifar-10";
  public static final String OFFICIAL_BASE_URL = "https://www.cs.toronto.edu/~kriz/";
  public static final String ARCHIVE = "cifar-10-binary.tar.gz";
  public static final String ARCHIVE_MD5 = "c32a1d4ab5d03f1284b67883e8d87530";
  public static final int CLASSES = 10;
  public static final int RECORDS_PER_FILE = 10_000;
  public static final List<String> TRAIN_FILES = List.of("data_batch_1.bin", "data_batch_2.bin",
      "data_batch_3.bin", "data_batch_4.bin", "data_batch_5.bin");
  public static final String TEST_FILE = "test_batch.bin";
  private static final String ARCHIVE_FOLDER = "cifar-10-batches-bin";

  private static final int CONNECT_TIMEOUT_MS = 4_000;
  private static final int READ_TIMEOUT_MS = 30_000;

  private Cifar10() {}

  /** Loads from the default cache dir, downloading the official archive when needed. */
  public static DatasetSplits load() {
    return load(DatasetCacheDir.defaultDir());
  }

  public static DatasetSplits load(Path cacheDir) {
    try (FetchSource official =
        new HttpSource(OFFICIAL_BASE_URL, CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS)) {
      return load(cacheDir, List.of(official), RECORDS_PER_FILE);
    }
  }

  /** With the given archive sources and records per batch file (tests write small files). */
  static DatasetSplits load(Path cacheDir, List<FetchSource> sources, int recordsPerFile) {
    Path dir = cacheDir.resolve(NAME);
    if (findAll(dir) == null) {
      fetchArchive(dir, sources);
    }
    List<Path> files = findAll(dir);
    if (files == null) {
      throw DataErrors.datasetUnavailable(NAME, "the archive held no complete set of batch files",
          howToGet(dir));
    }
    List<LabeledArrays> train = new ArrayList<>();
    for (int i = 0; i < TRAIN_FILES.size(); i++) {
      train.add(read(files.get(i), recordsPerFile));
    }
    LabeledArrays test = read(files.get(TRAIN_FILES.size()), recordsPerFile);
    return new DatasetSplits(LabeledArrays.concat(train), test, CifarBinaryReader.CHANNELS,
        CifarBinaryReader.SIDE, CifarBinaryReader.SIDE, NAME);
  }

  private static LabeledArrays read(Path file, int recordsPerFile) {
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
    }
    long expected = (long) recordsPerFile * CifarBinaryReader.RECORD_BYTES;
    if (content.length != expected) {
      throw DataErrors.datasetCorrupt(NAME, file.toString(), "it holds " + content.length
          + " bytes, expected " + expected + " (" + recordsPerFile + " records of "
          + CifarBinaryReader.RECORD_BYTES + " bytes)");
    }
    return CifarBinaryReader.parse(content, file.toString(), CLASSES);
  }

  /** The six files in order (train batches, then test), or null when any is missing. */
  private static List<Path> findAll(Path dir) {
    for (Path folder : List.of(dir, dir.resolve(ARCHIVE_FOLDER))) {
      List<Path> files = new ArrayList<>();
      for (String name : allNames()) {
        if (Files.isRegularFile(folder.resolve(name))) {
          files.add(folder.resolve(name));
        }
      }
      if (files.size() == allNames().size()) {
        return files;
      }
    }
    return null;
  }

  private static Set<String> allNames() {
    Set<String> names = new LinkedHashSet<>(TRAIN_FILES);
    names.add(TEST_FILE);
    return names;
  }

  private static void fetchArchive(Path dir, List<FetchSource> sources) {
    List<String> tried = new ArrayList<>();
    for (FetchSource source : sources) {
      Path part = null;
      try {
        Files.createDirectories(dir);
        part = Files.createTempFile(dir, "." + ARCHIVE + "-", ".part");
        System.err.println("dssync datasets: fetching " + source.describe(ARCHIVE));
        source.fetch(ARCHIVE, part);
        String md5 = md5(part);
        if (!md5.equals(ARCHIVE_MD5)) {
          throw DataErrors.datasetCorrupt(NAME, source.describe(ARCHIVE),
              "its MD5 is " + md5 + " but " + ARCHIVE_MD5 + " was expected");
        }
        TarGzExtractor.extract(part, allNames(), dir);
        return;
      } catch (IOException | DsSyncException | UncheckedIOException e) {
        tried.add(source.describe(ARCHIVE) + " (" + e.getClass().getSimpleName() + ": "
            + e.getMessage() + ")");
      } finally {
        DatasetCache.deleteQuietly(part);
      }
    }
    throw DataErrors.datasetUnavailable(NAME,
        tried.isEmpty() ? "no source" : String.join("; ", tried), howToGet(dir));
  }

  private static String md5(Path file) throws IOException {
    try (InputStream in = new DigestInputStream(Files.newInputStream(file),
        MessageDigest.getInstance("MD5"))) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
      return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides MD5", e);
    }
  }

  static String howToGet(Path dir) {
    return "Download " + OFFICIAL_BASE_URL + ARCHIVE + " (170,052,171 bytes, MD5 " + ARCHIVE_MD5
        + ") and unpack it into " + dir + " (datasets/cifar-10/fetch.sh does this), or set "
        + DatasetCacheDir.DATA_DIR_ENV + " to a folder whose cifar-10/ subfolder holds"
        + " data_batch_1.bin .. data_batch_5.bin and test_batch.bin.";
  }
}
