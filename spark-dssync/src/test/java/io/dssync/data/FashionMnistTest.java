package io.dssync.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Real Fashion-MNIST, fetched once into the default cache dir (outside the project) so that later
 * runs and other tests reuse it.
 */
class FashionMnistTest {
  @Test
  void loadsTheFullRealDatasetScaledToUnitRangeWithBalancedLabels() {
    DatasetSplits splits = FashionMnist.load();
    assertEquals("fashion-mnist", splits.name());
    assertEquals(1, splits.channels());
    assertEquals(28, splits.height());
    assertEquals(28, splits.width());
    check(splits.train(), 60_000);
    check(splits.test(), 10_000);
    // Known first examples of the published files: train[0] is an ankle boot (9), test[0] too.
    assertEquals(9, splits.train().labels()[0]);
    assertEquals(9, splits.test().labels()[0]);
  }

  private static void check(LabeledArrays data, int size) {
    assertEquals(size, data.size());
    assertEquals(784, data.featureSize());
    assertEquals(10, data.numClasses());
    float min = Float.MAX_VALUE;
    float max = -Float.MAX_VALUE;
    double sum = 0;
    for (float v : data.features()) {
      min = Math.min(min, v);
      max = Math.max(max, v);
      sum += v;
    }
    assertEquals(0f, min);
    assertEquals(1f, max);
    // Fashion-MNIST's mean pixel is about 0.286 in both splits (catches a wrong scale or offset).
    assertEquals(0.286, sum / data.features().length, 0.005);
    int[] counts = new int[10];
    for (float label : data.labels()) {
      counts[(int) label]++;
    }
    for (int c = 0; c < 10; c++) {
      assertEquals(size / 10, counts[c], "examples of class " + c);
    }
  }

  @Test
  void cacheDirComesFromTheEnvironmentThenThePropertyThenTheHomeFolder() {
    Properties props = new Properties();
    props.setProperty("user.home", "/home/u");
    assertEquals(Path.of("/home/u", ".cache", "dssync", "datasets"),
        FashionMnist.resolveCacheDir(Map.of(), props));
    props.setProperty("dssync.dataDir", "/p");
    assertEquals(Path.of("/p"), FashionMnist.resolveCacheDir(Map.of("DSSYNC_DATA_DIR", " "), props));
    assertEquals(Path.of("/e"), FashionMnist.resolveCacheDir(Map.of("DSSYNC_DATA_DIR", "/e"), props));
  }
}
