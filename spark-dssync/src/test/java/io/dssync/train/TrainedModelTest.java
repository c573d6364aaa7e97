package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dssync.data.LabeledArrays;
import io.dssync.models.ModelSpec;
import io.dssync.replica.Evaluation;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.replica.Synthetic;
import org.junit.jupiter.api.Test;

class TrainedModelTest {
  private static final ModelSpec CNN = new ModelSpec("cnn", 1, 12, 12, 10, 42);

  @Test
  void evaluatesItsStateLikeTheReplicaItCameFromOnOneThreadOrTwo() {
    LabeledArrays data = Synthetic.templates(CNN, 600, 0.3f, 11);
    try (ModelReplica trained = Replicas.create(CNN, OptimizerSpec.sgd(0.9, 0), 1)) {
      Synthetic.train(trained, data, 32, 10, 0.05f);
      Evaluation direct = trained.evaluate(data.features(), data.labels(), data.size());
      TrainedModel model = new TrainedModel(CNN, Synthetic.state(trained));
      for (int threads : new int[] {1, 2}) {
        Evaluation e = model.evaluate(data, threads);
        assertEquals(direct.accuracy(), e.accuracy(), 1e-9, threads + " threads");
        assertEquals(direct.loss(), e.loss(), 1e-5 * Math.max(1, direct.loss()), threads + " threads");
      }
    }
  }
}
