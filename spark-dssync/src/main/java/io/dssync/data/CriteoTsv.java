package io.dssync.data;

import io.dssync.data.fetch.DatasetCacheDir;
import io.dssync.data.format.ClickLogDataset;
import io.dssync.data.format.FieldLayout;
import io.dssync.data.format.IdxReader;
import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Reads the Criteo Display Advertising Challenge format (Kaggle {@code train.txt}, also gzip):
 * one example a line, tab-separated {@code label, I1..I13, C1..C26}; integer counts I and
 * 32-bit hex categories C may be empty (missing).
 *
 * <p>Encoding (see {@link FieldLayout}): each field's value becomes a key, hashed into the
 * field's buckets 1..B-1; bucket 0 is "missing". Count fields are log-transformed first, as the
 * competition's winning solutions did: {@code v > 2 -> floor(ln(v)^2)}, else {@code v}, which
 * keeps small counts exact and merges large ones on a log scale. Hashing is a fixed 64-bit FNV-1a
 * of the field number and the key, so ids are the same on every machine and in every run.
 *
 * <p>Split: every {@code testEvery}-th row (rows testEvery-1, 2*testEvery-1, ...) is test data.
 * The arrays hold everything in memory (39 floats a row): use {@code maxRows} for a prefix of the
 * 45,840,617-row file on small machines.
 */
public final class CriteoTsv {
  public static final String NAME = "criteo";
  public static final int INTEGER_FIELDS = 13;
  public static final int CATEGORICAL_FIELDS = 26;
  public static final int FIELDS = INTEGER_FIELDS + CATEGORICAL_FIELDS;
  public static final String KAGGLE_URL =
      "https://www.kaggle.com/c/criteo-display-ad-challenge (dac.tar.gz, train.txt)";

  /** Buckets per integer field (the transformed counts stay below ~450) and per category field. */
  public record Options(int integerBuckets, int categoricalBuckets, int testEvery, long maxRows) {
    public static Options defaults() {
      return new Options(512, 10_000, 10, 0);
    }

    public Options {
      if (integerBuckets < 2 || categoricalBuckets < 2) {
        throw Errors.invalidSetting("Criteo buckets", integerBuckets + "/" + categoricalBuckets,
            "each field needs at least 2 buckets (one is 'missing')",
            "Use e.g. 512 for count fields and 10000-1000000 for category fields.");
      }
      if (testEvery < 2) {
        throw Errors.invalidSetting("Criteo testEvery", testEvery, "it must be at least 2",
            "Use 10 for a 90/10 split.");
      }
    }
  }

  private CriteoTsv() {}

  public static FieldLayout layout(Options options) {
    List<String> names = new ArrayList<>();
    int[] buckets = new int[FIELDS];
    for (int f = 0; f < FIELDS; f++) {
      names.add(f < INTEGER_FIELDS ? "I" + (f + 1) : "C" + (f - INTEGER_FIELDS + 1));
      buckets[f] = f < INTEGER_FIELDS ? options.integerBuckets() : options.categoricalBuckets();
    }
    return new FieldLayout(names, buckets);
  }

  /** Reads {@code <cache root>/criteo/train.txt} (datasets/criteo/fetch.sh puts it there). */
  public static ClickLogDataset load() {
    Path cached = DatasetCacheDir.defaultDir().resolve(NAME).resolve("train.txt");
    return load(cached, Options.defaults());
  }

  /** Reads {@code file} (a Kaggle train.txt, plain or gzip). */
  public static ClickLogDataset load(Path file, Options options) {
    if (!Files.isRegularFile(file)) {
      throw DataErrors.datasetUnavailable(NAME, file + " (no such file)", "Criteo's data cannot be"
          + " redistributed: download it from " + KAGGLE_URL + " (accept its licence), unpack"
          + " train.txt and pass its path, or put it into the cache with datasets/criteo/fetch.sh"
          + " (see datasets/criteo/README.md).");
    }
    FieldLayout layout = layout(options);
    int[] offsets = new int[FIELDS];
    for (int f = 0; f < FIELDS; f++) {
      offsets[f] = layout.offset(f);
    }
    Rows train = new Rows();
    Rows test = new Rows();
    try (BufferedReader reader = open(file)) {
      String line;
      long row = 0;
      while ((line = reader.readLine()) != null && (options.maxRows() <= 0
          || row < options.maxRows())) {
        if (line.isEmpty()) {
          continue;
        }
        Rows target = row % options.testEvery() == options.testEvery() - 1 ? test : train;
        encodeLine(line, file + ":" + (row + 1), layout, offsets, target);
        row++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
    }
    DatasetSplits splits = new DatasetSplits(train.toArrays(), test.toArrays(), 1, 1, FIELDS,
        NAME, layout.totalIds());
    return new ClickLogDataset(splits, layout);
  }

  private static BufferedReader open(Path file) throws IOException {
    InputStream in = Files.newInputStream(file);
    byte[] head = in.readNBytes(2);
    in.close();
    InputStream data = Files.newInputStream(file);
    if (IdxReader.isGzip(head)) {
      data = new GZIPInputStream(data, 1 << 16);
    }
    return new BufferedReader(new InputStreamReader(data, StandardCharsets.UTF_8), 1 << 16);
  }

  static void encodeLine(String line, String where, FieldLayout layout, int[] offsets,
      Rows out) {
    String[] cols = line.split("\t", -1);
    if (cols.length != FIELDS + 1) {
      throw DataErrors.badRecord(where, "it has " + cols.length + " tab-separated columns, expected "
          + (FIELDS + 1) + " (label, I1..I13, C1..C26)", "Pass Criteo's train.txt (test.txt has"
          + " no label column and cannot be used for training).");
    }
    int label;
    if (cols[0].equals("0") || cols[0].equals("1")) {
      label = cols[0].charAt(0) - '0';
    } else {
      throw DataErrors.badRecord(where, "label '" + cols[0] + "' is not 0 or 1",
          "The first column must be the click label.");
    }
    float[] ids = new float[FIELDS];
    for (int f = 0; f < FIELDS; f++) {
      String value = cols[f + 1];
      int bucket;
      if (value.isEmpty()) {
        bucket = 0;
      } else {
        String key = f < INTEGER_FIELDS ? Long.toString(logBucket(parseCount(value, where, f)))
            : value;
        bucket = 1 + (int) Math.floorMod(hash(f, key), (long) layout.buckets(f) - 1);
      }
      ids[f] = offsets[f] + bucket;
    }
    out.add(ids, label);
  }

  /** The competition winners' transform: {@code v > 2 -> floor(ln(v)^2)}, else v. */
  public static long logBucket(long v) {
    if (v > 2) {
      double ln = Math.log(v);
      return (long) Math.floor(ln * ln);
    }
    return v;
  }

  private static long parseCount(String value, String where, int field) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw DataErrors.badRecord(where, "I" + (field + 1) + " = '" + value + "' is not an integer",
          "Integer fields hold counts or are empty.");
    }
  }

  /** 64-bit FNV-1a over the field number and the key's UTF-8 bytes. */
  static long hash(int field, String key) {
    long h = 0xcbf29ce484222325L;
    h = (h ^ field) * 0x100000001b3L;
    for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    return h;
  }

  /** A growing list of rows of F ids and their labels. */
  static final class Rows {
    private float[] ids = new float[1024 * FIELDS];
    private int[] labels = new int[1024];
    private int size;
    private int width = -1;

    void add(float[] row, int label) {
      if (width < 0) {
        width = row.length;
      }
      if (size == labels.length) {
        labels = java.util.Arrays.copyOf(labels, size * 2);
        ids = java.util.Arrays.copyOf(ids, size * 2 * width);
      }
      if (ids.length < (size + 1) * width) {
        ids = java.util.Arrays.copyOf(ids, labels.length * width);
      }
      System.arraycopy(row, 0, ids, size * width, width);
      labels[size++] = label;
    }

    LabeledArrays toArrays() {
      int w = Math.max(width, 0);
      return new LabeledArrays(java.util.Arrays.copyOf(ids, size * w),
          java.util.Arrays.copyOf(labels, size), w == 0 ? FIELDS : w, 2);
    }
  }
}
