package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.models.ModelSpec;
import org.junit.jupiter.api.Test;

/**
 * The engine trains: the loss falls far below its start on {@link Synthetic} data (a unit test of
 * forward, backward and the optimizers; accuracy on real data is measured by the trainer).
 */
class DjlReplicaLearningTest {
  static final ModelSpec MLP = new ModelSpec("mlp", 1, 28, 28, 10, 1);
  static final ModelSpec CNN = new ModelSpec("cnn", 1, 28, 28, 10, 1);

  @Test
  void mlpWithSgdMomentumLearns() {
    assertLearns(MLP, OptimizerSpec.sgd(0.9, 1e-4), 0.01f);
  }

  @Test
  void mlpWithAdamLearns() {
    assertLearns(MLP, OptimizerSpec.adam(1e-4), 1e-3f);
  }

  @Test
  void cnnWithSgdMomentumLearns() {
    assertLearns(CNN, OptimizerSpec.sgd(0.9, 1e-4), 0.003f);
  }

  @Test
  void cnnTrainingThroughputWithOneThreadIsReported() {
    LabeledArrays data = Synthetic.templates(CNN, 64, 2f, 9);
    try (ModelReplica r = Replicas.create(CNN, OptimizerSpec.sgd(0.9, 0), 1)) {
      Synthetic.train(r, data, 64, 3, 0.01f); // warm-up
      int steps = 15;
      long start = System.nanoTime();
      Synthetic.train(r, data, 64, steps, 0.01f);
      double seconds = (System.nanoTime() - start) / 1e9;
      // Printed, not asserted: the machine is shared and timings are noisy.
      System.out.printf("cnn 1x28x28 batch 64, 1 thread: %.0f samples/s%n", steps * 64 / seconds);
    }
  }

  private static void assertLearns(ModelSpec spec, OptimizerSpec optimizer, float lr) {
    LabeledArrays train = Synthetic.templates(spec, 640, 1f, 10);
    LabeledArrays test = Synthetic.templates(spec, 256, 1f, 11);
    try (ModelReplica r = Replicas.create(spec, optimizer, 1)) {
      Evaluation before = r.evaluate(test.features(), test.labels(), test.size());
      Synthetic.train(r, train, 32, 40, lr);
      Evaluation after = r.evaluate(test.features(), test.labels(), test.size());
      assertTrue(after.loss() < 0.25 * before.loss(), before + " -> " + after);
      assertTrue(after.accuracy() > 0.9, before + " -> " + after);
    }
  }
}
