package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.pytorch.jni.JniUtils;
import io.dssync.data.LabeledArrays;
import io.dssync.models.ModelSpec;
import org.junit.jupiter.api.Test;

/**
 * The driver's evaluation on more threads than the replicas train with (no stage runs then); that
 * it gives the same result is {@code TrainedModelTest}'s.
 */
class DjlReplicaEvaluationThreadsTest {
  @Test
  void evaluatingOnMoreThreadsLeavesTheCallingThreadAtTheReplicasCap() {
    ModelSpec mlp = new ModelSpec("mlp", 1, 8, 8, 10, 42);
    LabeledArrays data = Synthetic.templates(mlp, 64, 0.3f, 7);
    try (ModelReplica r = Replicas.create(mlp, OptimizerSpec.sgd(0.9, 0), 1)) {
      assertEquals(64, r.evaluate(data.features(), data.labels(), data.size(), 2).count());
      assertEquals(TorchRuntime.threads(), JniUtils.getNumThreads(), "the cap applies again on this thread");
    }
  }
}
