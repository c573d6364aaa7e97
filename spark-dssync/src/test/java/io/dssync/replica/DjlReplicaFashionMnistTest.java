package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.data.FashionMnist;
import io.dssync.data.LabeledArrays;
import io.dssync.models.ModelSpec;
import io.dssync.testing.TestData;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The models learn on real Fashion-MNIST images (fetched once per machine into the dataset cache).
 * 40 steps of 32 on 1,280 images: far from converged, but well clear of chance (10%).
 */
class DjlReplicaFashionMnistTest {
  static LabeledArrays train;
  static LabeledArrays test;

  @BeforeAll
  static void load() {
    DatasetSplits splits = TestData.fashionMnist(1_280, 512);
    train = splits.train();
    test = splits.test();
  }

  @Test
  void cnnLossFallsFarBelowItsInitialValueOnRealImages() {
    assertLearns("cnn", 0.003f);
  }

  @Test
  void mlpLossFallsFarBelowItsInitialValueOnRealImages() {
    assertLearns("mlp", 0.01f);
  }

  private static void assertLearns(String model, float lr) {
    ModelSpec spec = new ModelSpec(model, 1, FashionMnist.HEIGHT, FashionMnist.WIDTH,
        FashionMnist.CLASSES, 1);
    try (ModelReplica r = Replicas.create(spec, OptimizerSpec.sgd(0.9, 1e-4), 1)) {
      Evaluation before = r.evaluate(test.features(), test.labels(), test.size());
      Synthetic.train(r, train, 32, 40, lr);
      Evaluation after = r.evaluate(test.features(), test.labels(), test.size());
      System.out.println("fashion-mnist " + model + ", 40 steps of 32: " + before + " -> " + after);
      assertTrue(after.loss() < 0.45 * before.loss(), before + " -> " + after);
      assertTrue(after.accuracy() > 0.6, before + " -> " + after);
    }
  }
}
