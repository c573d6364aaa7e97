package io.dssync.data;

import io.dssync.data.fetch.DatasetCache;
import io.dssync.data.fetch.ExpectedFile;
import io.dssync.data.fetch.FetchSource;
import io.dssync.data.fetch.HttpSource;
import io.dssync.data.format.IdxReader;
import io.dssync.errors.DataErrors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * An image dataset published as four IDX files (train/test images and labels), like MNIST and
 * Fashion-MNIST: verifies each file's decompressed content, checks the shape, scales pixels to
 * [0, 1] (value / 255) and returns {@code 1 x height x width} examples.
 */
record IdxImageDataset(String name, int classes, int height, int width, int trainSize,
    int testSize, ExpectedFile trainImages, ExpectedFile trainLabels, ExpectedFile testImages,
    ExpectedFile testLabels) {

  // Short on purpose: on firewalled networks the official host may hang rather than refuse.
  private static final int CONNECT_TIMEOUT_MS = 4_000;
  private static final int READ_TIMEOUT_MS = 15_000;

  /**
   * Loads from {@code cacheDir/<name>/}, fetching missing files from {@code officialUrl} first and
   * then from {@code fallback} (made for the dataset's folder, e.g. a distribution package).
   */
  DatasetSplits loadOfficialOr(Path cacheDir, String officialUrl, Function<Path, FetchSource> fallback,
      String howToGet) {
    try (FetchSource official = new HttpSource(officialUrl, CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS);
        FetchSource second = fallback.apply(cacheDir.resolve(name))) {
      return load(cacheDir, List.of(official, second), howToGet);
    }
  }

  /** Loads from {@code cacheDir/<name>/}, fetching missing files from {@code sources} in order. */
  DatasetSplits load(Path cacheDir, List<FetchSource> sources, String howToGet) {
    DatasetCache cache = new DatasetCache(cacheDir.resolve(name), sources, howToGet);
    LabeledArrays train = toArrays(cache, trainImages, trainLabels, trainSize);
    LabeledArrays test = toArrays(cache, testImages, testLabels, testSize);
    return new DatasetSplits(train, test, 1, height, width, name);
  }

  /**
   * The four files in {@code cacheDir/<name>/} (train images, train labels, test images, test
   * labels), each as {@code <file>.gz} when present, else uncompressed, like {@link DatasetCache}
   * looks for them; for readers outside the JVM after {@link #load} verified them.
   */
  List<Path> cachedFiles(Path cacheDir) {
    Path dir = cacheDir.resolve(name);
    return List.of(trainImages, trainLabels, testImages, testLabels).stream().map(f -> {
      Path gz = dir.resolve(f.name() + ".gz");
      return Files.isRegularFile(gz) ? gz : dir.resolve(f.name());
    }).toList();
  }

  private LabeledArrays toArrays(DatasetCache cache, ExpectedFile imagesFile,
      ExpectedFile labelsFile, int expectedCount) {
    String imagesName = cache.dir().resolve(imagesFile.name()).toString();
    String labelsName = cache.dir().resolve(labelsFile.name()).toString();
    IdxReader.Images images = IdxReader.parseImages(cache.obtain(imagesFile), imagesName);
    byte[] labels = IdxReader.parseLabels(cache.obtain(labelsFile), labelsName);
    // The checksums already pin the content; these checks keep the shape assumptions explicit.
    if (images.count() != expectedCount || images.rows() != height || images.cols() != width) {
      throw DataErrors.datasetCorrupt(name, imagesName, "it holds " + images.count() + " images of "
          + images.rows() + "x" + images.cols() + ", expected " + expectedCount + " of " + height
          + "x" + width);
    }
    if (labels.length != expectedCount) {
      throw DataErrors.datasetCorrupt(name, labelsName,
          "it holds " + labels.length + " labels, expected " + expectedCount);
    }
    byte[] pixels = images.pixels();
    float[] features = new float[pixels.length];
    for (int i = 0; i < pixels.length; i++) {
      features[i] = (pixels[i] & 0xff) / 255f;
    }
    int[] classIds = new int[labels.length];
    for (int i = 0; i < labels.length; i++) {
      classIds[i] = labels[i] & 0xff;
      if (classIds[i] >= classes) {
        throw DataErrors.datasetCorrupt(name, labelsName, "label " + classIds[i] + " at index " + i
            + " is outside 0.." + (classes - 1));
      }
    }
    return new LabeledArrays(features, classIds, height * width, classes);
  }
}
