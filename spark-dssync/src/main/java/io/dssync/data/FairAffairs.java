package io.dssync.data;

import io.dssync.data.fetch.DatasetCache;
import io.dssync.data.fetch.DatasetCacheDir;
import io.dssync.data.fetch.DebianPackageSource;
import io.dssync.data.fetch.ExpectedFile;
import io.dssync.data.fetch.FetchSource;
import io.dssync.data.format.ClickLogDataset;
import io.dssync.data.format.FieldLayout;
import io.dssync.errors.DataErrors;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Fair's extramarital-affairs survey (Fair 1978, Journal of Political Economy; 1974 Redbook
 * magazine survey of 6,366 women), as shipped by statsmodels in the Debian package
 * {@code python3-statsmodels}: a real binary-label dataset of 8 categorical or coded fields
 * (marriage rating, age band, years married, children, religiousness, education, occupation,
 * husband's occupation). Label 1 = reported any time in affairs ({@code affairs > 0}, 32% of rows).
 *
 * <p>Encoded as a click log ({@link FieldLayout}): every field is categorical; field f's ids are
 * its distinct training values in ascending order (1..k), id 0 is a value the training split
 * never showed. Exact ids instead of hashing: the fields have at most a few values each.
 * Split: every fifth row (rows 4, 9, ...) is test data: 5,093 train, 1,273 test.
 */
public final class FairAffairs {
  public static final String NAME = "fair-affairs";
  public static final String DEBIAN_PACKAGE = "python3-statsmodels";
  public static final List<String> FIELD_NAMES = List.of("rate_marriage", "age", "yrs_married",
      "children", "religious", "educ", "occupation", "occupation_husb");
  public static final int ROWS = 6_366;
  static final ExpectedFile CSV = new ExpectedFile(NAME, "fair.csv", 151_816L,
      "fd5f3f094a34fc35ca346a14c359e046ed27843038d6921efcd50a7ab21f6af0");
  private static final int TEST_EVERY = 5;

  private FairAffairs() {}

  public static ClickLogDataset load() {
    return load(DatasetCacheDir.defaultDir());
  }

  public static ClickLogDataset load(Path cacheDir) {
    Path dir = cacheDir.resolve(NAME);
    try (FetchSource debian = new DebianPackageSource(DEBIAN_PACKAGE, dir)) {
      return load(cacheDir, List.of(debian));
    }
  }

  static ClickLogDataset load(Path cacheDir, List<FetchSource> sources) {
    Path dir = cacheDir.resolve(NAME);
    DatasetCache cache = new DatasetCache(dir, sources, howToGet(dir));
    String csv = new String(cache.obtain(CSV), StandardCharsets.UTF_8);
    String fileName = dir.resolve(CSV.name()).toString();
    List<double[]> rows = parse(csv, fileName);

    int fields = FIELD_NAMES.size();
    List<List<Double>> values = new ArrayList<>();
    for (int f = 0; f < fields; f++) {
      TreeSet<Double> seen = new TreeSet<>();
      for (int r = 0; r < rows.size(); r++) {
        if (!isTest(r)) {
          seen.add(rows.get(r)[f]);
        }
      }
      values.add(new ArrayList<>(seen));
    }
    int[] buckets = new int[fields];
    for (int f = 0; f < fields; f++) {
      buckets[f] = 1 + values.get(f).size();
    }
    FieldLayout layout = new FieldLayout(FIELD_NAMES, buckets);
    CriteoTsv.Rows train = new CriteoTsv.Rows();
    CriteoTsv.Rows test = new CriteoTsv.Rows();
    for (int r = 0; r < rows.size(); r++) {
      double[] row = rows.get(r);
      float[] ids = new float[fields];
      for (int f = 0; f < fields; f++) {
        int index = values.get(f).indexOf(row[f]);
        ids[f] = layout.offset(f) + (index < 0 ? 0 : 1 + index);
      }
      (isTest(r) ? test : train).add(ids, row[fields] > 0 ? 1 : 0);
    }
    DatasetSplits splits = new DatasetSplits(train.toArrays(), test.toArrays(), 1, 1, fields,
        NAME, layout.totalIds());
    return new ClickLogDataset(splits, layout);
  }

  static boolean isTest(int row) {
    return row % TEST_EVERY == TEST_EVERY - 1;
  }

  private static List<double[]> parse(String csv, String fileName) {
    String[] lines = csv.split("\n");
    String header = String.join(",", FIELD_NAMES.stream().map(n -> "\"" + n + "\"").toList())
        + ",\"affairs\"";
    if (!lines[0].trim().equals(header)) {
      throw DataErrors.datasetCorrupt(NAME, fileName, "its header is '" + lines[0] + "', expected '"
          + header + "'");
    }
    List<double[]> rows = new ArrayList<>(ROWS);
    for (int i = 1; i < lines.length; i++) {
      String[] cols = lines[i].trim().split(",");
      if (cols.length != FIELD_NAMES.size() + 1) {
        throw DataErrors.datasetCorrupt(NAME, fileName, "line " + (i + 1) + " has " + cols.length
            + " columns, expected " + (FIELD_NAMES.size() + 1));
      }
      double[] row = new double[cols.length];
      for (int c = 0; c < cols.length; c++) {
        row[c] = Double.parseDouble(cols[c]);
      }
      rows.add(row);
    }
    return rows;
  }

  static String howToGet(Path dir) {
    return "Install the Debian package (apt-get install " + DEBIAN_PACKAGE + ") or let the"
        + " loader download it (needs apt-get and package lists), or run"
        + " datasets/fair-affairs/fetch.sh, which puts fair.csv into " + dir + ".";
  }
}
