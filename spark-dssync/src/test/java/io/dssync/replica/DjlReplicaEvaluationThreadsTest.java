package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.pytorch.jni.JniUtils;
import io.dssync.data.LabeledArrays;
import io.dssync.models.ModelSpec;
import org.junit.jupiter.api.Test;

/** The driver's evaluation on more threads than the replicas train with (no stage runs then). */
class DjlReplicaEvaluationThreadsTest {
  private static final ModelSpec CNN = new ModelSpec("cnn", 1, 12, 12, 10, 42);

  @Test
  void evaluatingOnMoreThreadsGivesTheSameResultAndLeavesTheThreadAtTheReplicasCap() {
    LabeledArrays data = Synthetic.templates(CNN, 1_200, 0.3f, 7);
    try (ModelReplica r = Replicas.create(CNN, OptimizerSpec.sgd(0.9, 0), 1)) {
      Synthetic.train(r, data, 32, 20, 0.05f);
      Evaluation one = r.evaluate(data.features(), data.labels(), data.size());
      Evaluation two = r.evaluate(data.features(), data.labels(), data.size(), 2);
      assertEquals(one.count(), two.count());
      assertEquals(one.accuracy(), two.accuracy(), 1e-9);
      assertEquals(one.loss(), two.loss(), 1e-5 * Math.max(1, one.loss()), "only the order of float sums differs");
      assertEquals(TorchRuntime.threads(), JniUtils.getNumThreads(), "the cap applies again on this thread");
    }
  }
}
