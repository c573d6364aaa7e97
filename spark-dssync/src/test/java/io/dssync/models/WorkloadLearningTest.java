package io.dssync.models;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.data.FairAffairs;
import io.dssync.data.KjvDatasets;
import io.dssync.data.LabeledArrays;
import io.dssync.data.fetch.DatasetCacheDir;
import io.dssync.replica.Evaluation;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.replica.Synthetic;
import io.dssync.testing.TestData;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Each workload learns on its real dataset (fetched once per machine into the dataset cache): a
 * tiny model, tens of steps on one replica, asserting the loss falls below and the metric rises
 * above stated values. Far from converged; the presets train the real thing.
 */
class WorkloadLearningTest {
  @Test
  void wideResNetLearnsFashionMnist() {
    DatasetSplits data = TestData.fashionMnist(1_280, 500);
    ModelSpec spec = new ModelSpec("wrn-10-1", 1, 28, 28, 10, 1);
    Evaluation after = train(spec, data.train(), data.test(), OptimizerSpec.adam(0), 32, 60, 0.002f);
    // Chance: accuracy 0.10, loss ln 10 = 2.30.
    assertTrue(after.loss() < 1.2 && after.accuracy() > 0.62, after.toString());
  }

  @Test
  void bertClassifierLearnsWhichBookAVerseIsFrom() {
    // Length 32 and a 2,000-piece vocabulary keep loading and steps short.
    DatasetSplits data = KjvDatasets.books(DatasetCacheDir.defaultDir(), 2_000, 32);
    ModelSpec spec = new ModelSpec("bert-cls-L1-H2-D32", 1, 1, 32, 4, 1, data.vocabSize());
    LabeledArrays train = shuffled(data.train(), 2_048);
    Evaluation after = train(spec, train, data.test(), OptimizerSpec.adam(0), 32, 64, 0.003f);
    // Majority class (Psalms) is about 41% of the test verses; chance loss ln 4 = 1.39.
    assertTrue(after.loss() < 1.0 && after.accuracy() > 0.6, after.toString());
  }

  @Test
  void bertMaskedLmLearnsBibleText() {
    DatasetSplits data = KjvDatasets.maskedLm(DatasetCacheDir.defaultDir(), 2_000, 32, 17);
    ModelSpec spec = new ModelSpec("bert-mlm-L1-H2-D32", 2, 1, 32, data.vocabSize(), 1, data.vocabSize());
    LabeledArrays train = shuffled(data.train(), 2_048);
    LabeledArrays test = data.test().head(500);
    Evaluation after = train(spec, train, test, OptimizerSpec.adam(0), 32, 64, 0.003f);
    // Uniform guessing: loss ln 2000 = 7.6, masked accuracy 0.0005.
    assertTrue(after.loss() < 6.5 && after.metric() > 0.05, after.toString());
  }

  @Test
  void deepFmLearnsTheFairAffairsData() {
    DatasetSplits data = FairAffairs.load().splits();
    ModelSpec spec = new ModelSpec("deepfm", 1, 1, data.width(), 2, 1, data.vocabSize());
    Evaluation after = train(spec, shuffled(data.train(), data.train().size()), data.test(),
        OptimizerSpec.adam(0), 64, 200, 0.003f);
    // A constant predictor has AUC 0.5 and log-loss about 0.62 (a third of the labels are 1).
    assertTrue(after.loss() < 0.58 && after.metric() > 0.70, after.toString());
  }

  private static Evaluation train(ModelSpec spec, LabeledArrays train, LabeledArrays test,
      OptimizerSpec optimizer, int batch, int steps, float lr) {
    try (ModelReplica r = Replicas.create(spec, optimizer, 1)) {
      Evaluation before = r.evaluate(test.features(), test.labels(), test.size());
      long t0 = System.nanoTime();
      Synthetic.train(r, train, batch, steps, lr);
      Evaluation after = r.evaluate(test.features(), test.labels(), test.size());
      System.out.printf("%s, %d steps of %d in %.1f s: %s -> %s%n", spec.name(), steps, batch,
          (System.nanoTime() - t0) / 1e9, before, after);
      return after;
    }
  }

  /** {@code n} examples in a seeded random order (the loaders keep verses in book order). */
  private static LabeledArrays shuffled(LabeledArrays data, int n) {
    int[] order = new SplittableRandom(7).ints(0, Integer.MAX_VALUE).limit(data.size()).toArray();
    Integer[] index = new Integer[data.size()];
    for (int i = 0; i < index.length; i++) {
      index[i] = i;
    }
    java.util.Arrays.sort(index, java.util.Comparator.comparingInt(i -> order[i]));
    int m = Math.min(n, data.size());
    int fs = data.featureSize();
    float[] f = new float[m * fs];
    float[] l = new float[m];
    for (int i = 0; i < m; i++) {
      System.arraycopy(data.features(), index[i] * fs, f, i * fs, fs);
      l[i] = data.labels()[index[i]];
    }
    return new LabeledArrays(f, l, fs, data.labelSpec());
  }
}
