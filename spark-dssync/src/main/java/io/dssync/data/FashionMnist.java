package io.dssync.data;

import io.dssync.data.fetch.DatasetCacheDir;
import io.dssync.data.fetch.DebianPackageSource;
import io.dssync.data.fetch.ExpectedFile;
import io.dssync.data.fetch.FetchSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Fashion-MNIST (Zalando, MIT licence): 60,000 training and 10,000 test grey-scale 28x28 images of
 * 10 clothing classes.
 *
 * <p>Files are cached under {@code <cacheDir>/fashion-mnist/}. {@link #load()} uses, in order: the
 * cached files if their decompressed content verifies; the official source; the Debian package
 * {@code dataset-fashion-mnist} (installed, or downloaded and unpacked without installing).
 *
 * <p>Pixels are scaled to floats in [0, 1] (value / 255) and not standardized: the range is
 * bounded and data-independent, and standardizing is the model's choice (the training set's
 * pixel mean is about 0.286 and its standard deviation about 0.353).
 */
public final class FashionMnist {
  public static final String NAME = "fashion-mnist";
  public static final String OFFICIAL_URL =
      "http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/";
  public static final String DEBIAN_PACKAGE = "dataset-fashion-mnist";
  public static final int CLASSES = 10;
  public static final int HEIGHT = 28;
  public static final int WIDTH = 28;
  public static final int TRAIN_SIZE = 60_000;
  public static final int TEST_SIZE = 10_000;
  /** Environment variable, then system property, naming the dataset cache root. */
  public static final String DATA_DIR_ENV = DatasetCacheDir.DATA_DIR_ENV;
  public static final String DATA_DIR_PROPERTY = DatasetCacheDir.DATA_DIR_PROPERTY;

  // Decompressed sizes and SHA-256, computed from the Debian package's files (the same content as
  // upstream's archives; only the gzip headers differ). Listed in datasets/fashion-mnist/README.md.
  static final ExpectedFile TRAIN_IMAGES =
      new ExpectedFile(NAME, "train-images-idx3-ubyte", 47_040_016L,
      "c59f468a2f672dc815687fe0f83887768d799fd8a3f3276145d20f83aa44d888");
  static final ExpectedFile TRAIN_LABELS =
      new ExpectedFile(NAME, "train-labels-idx1-ubyte", 60_008L,
      "bad3541b69d912435c50bb6ba87bec294ff4f6a2e1246121d8633921760443d9");
  static final ExpectedFile TEST_IMAGES =
      new ExpectedFile(NAME, "t10k-images-idx3-ubyte", 7_840_016L,
      "5b4141f0afbad91edebe8549f8fcffe087ea10ca49f1dbef5c9a5cd8815ce37b");
  static final ExpectedFile TEST_LABELS =
      new ExpectedFile(NAME, "t10k-labels-idx1-ubyte", 10_008L,
      "0402a96d92fd2663957122ceb108a494c5af83dab82d92729df917d7dec38c34");

  private static final IdxImageDataset FILES = new IdxImageDataset(NAME, CLASSES, HEIGHT, WIDTH,
      TRAIN_SIZE, TEST_SIZE, TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS);

  private FashionMnist() {}

  /** Loads from the default cache dir (see {@link #defaultCacheDir()}), fetching when needed. */
  public static DatasetSplits load() {
    return load(defaultCacheDir());
  }

  /** Loads from {@code cacheDir}/fashion-mnist/, fetching into it when needed. */
  public static DatasetSplits load(Path cacheDir) {
    return FILES.loadOfficialOr(cacheDir, OFFICIAL_URL, dir -> new DebianPackageSource(DEBIAN_PACKAGE, dir),
        howToGet(cacheDir.resolve(NAME)));
  }

  /** Loads with the given fetch sources (tests substitute their own). */
  static DatasetSplits load(Path cacheDir, List<FetchSource> sources) {
    return FILES.load(cacheDir, sources, howToGet(cacheDir.resolve(NAME)));
  }

  /**
   * The cached IDX files {@link #load(Path)} read from {@code cacheDir} (train images, train labels,
   * test images, test labels; gzip or plain): for the benchmark's PyTorch peer, which reads the same
   * files. Call after a load succeeded.
   */
  public static List<Path> cachedFiles(Path cacheDir) {
    return FILES.cachedFiles(cacheDir);
  }

  /** {@code $DSSYNC_DATA_DIR}, else {@code -Ddssync.dataDir}, else {@code ~/.cache/dssync/datasets}.
   */
  public static Path defaultCacheDir() {
    return DatasetCacheDir.defaultDir();
  }

  static Path resolveCacheDir(Map<String, String> env, Properties properties) {
    return DatasetCacheDir.resolve(env, properties);
  }

  private static String howToGet(Path dir) {
    return "Get the four files (train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz,"
        + " t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz) from " + OFFICIAL_URL
        + " into " + dir + " (datasets/fashion-mnist/fetch.sh does this), or install the Debian"
        + " package (apt-get install " + DEBIAN_PACKAGE + "), or set " + DATA_DIR_ENV
        + " to a folder whose fashion-mnist/ subfolder holds the four files.";
  }
}
