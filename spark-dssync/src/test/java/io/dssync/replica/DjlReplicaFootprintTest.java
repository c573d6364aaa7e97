package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Blocks;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.models.FactoryModel;
import io.dssync.models.LossKind;
import io.dssync.models.ModelFactory;
import io.dssync.models.ModelSpec;
import org.junit.jupiter.api.Test;

class DjlReplicaFootprintTest {
  static final OptimizerSpec SGD = OptimizerSpec.sgd(0.9, 0);

  @Test
  void measuringTheFootprintLeavesTheStateAsItWasThoughATrainingForwardMovesBatchNormStatistics() {
    ModelSpec cnn = DjlReplicaStateTest.CNN;
    LabeledArrays data = Synthetic.templates(cnn, 2, 0.5f, 1);
    try (DjlReplica replica = new DjlReplica(cnn, SGD, 1)) {
      float[] before = Synthetic.state(replica);
      replica.stepFootprint(data.features(), data.labels(), 2);
      assertArrayEquals(before, Synthetic.state(replica));
    }
  }

  @Test
  void theFootprintOfTwoExamplesPredictsTheForwardTensorsOfLargerBatches() {
    for (ModelSpec spec : new ModelSpec[] {DjlReplicaStateTest.CNN, new ModelSpec("wrn-10-1", 3, 8, 8, 10, 42),
        new ModelSpec("mlp", 1, 12, 12, 10, 42)}) {
      LabeledArrays data = Synthetic.templates(spec, 32, 0.5f, 2);
      try (DjlReplica replica = new DjlReplica(spec, SGD, 1)) {
        LabeledArrays two = Synthetic.slice(data, 0, 2);
        StepFootprint footprint = replica.stepFootprint(two.features(), two.labels(), 2);
        for (int batch : new int[] {8, 32}) {
          long forward = replica.forwardTensorBytes(Synthetic.slice(data, 0, batch).features(),
              Synthetic.slice(data, 0, batch).labels(), batch);
          assertEquals(forward, footprint.heldBytes(batch), spec.name() + " at batch " + batch);
          assertTrue(forward > 0, spec.name());
        }
      }
    }
  }

  @Test
  void aBatchNormAfterALinearLayerIsMeasuredFromOneOrTwoExamples() {
    // In training mode such a BatchNorm refuses a batch of one example; a user's factory may have one.
    ModelSpec spec = new ModelSpec("factory", 1, 12, 12, 10, 42, 0, 1, LossKind.CLASSIFICATION,
        new FactoryModel(LinearBatchNorm.class.getName()));
    LabeledArrays data = Synthetic.templates(spec, 8, 0.5f, 4);
    try (DjlReplica replica = new DjlReplica(spec, SGD, 1)) {
      long forward = replica.forwardTensorBytes(data.features(), data.labels(), 8);
      for (int count : new int[] {1, 2}) {
        LabeledArrays sample = Synthetic.slice(data, 0, count);
        assertEquals(forward, replica.stepFootprint(sample.features(), sample.labels(), count).heldBytes(8),
            "from " + count);
      }
    }
  }

  /** Flatten, Linear, BatchNorm over (batch, units), logits. */
  public static final class LinearBatchNorm implements ModelFactory {
    @Override
    public Block build(ModelSpec spec) {
      return new SequentialBlock()
          .add(Blocks.batchFlattenBlock())
          .add(Linear.builder().setUnits(16).build())
          .add(BatchNorm.builder().build())
          .add(Activation.reluBlock())
          .add(Linear.builder().setUnits(spec.outputSize()).build());
    }
  }

  @Test
  void oneExampleStillGivesAFootprintAndNoneIsAClearError() {
    ModelSpec cnn = DjlReplicaStateTest.CNN;
    LabeledArrays one = Synthetic.templates(cnn, 1, 0.5f, 3);
    try (DjlReplica replica = new DjlReplica(cnn, SGD, 1)) {
      StepFootprint footprint = replica.stepFootprint(one.features(), one.labels(), 1);
      assertEquals(replica.forwardTensorBytes(one.features(), one.labels(), 1), footprint.heldBytes(1));
      DsSyncException e = assertThrows(DsSyncException.class,
          () -> replica.stepFootprint(new float[0], new float[0], 0));
      assertEquals(ErrorKind.CONFIG, e.kind());
    }
  }
}
