package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.models.ModelSpec;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Moving a replica through its flat vectors, which is how the trainer restarts stages. */
class DjlReplicaResumeTest {
  static final ModelSpec CNN = DjlReplicaStateTest.CNN;

  static OptimizerSpec optimizer(String kind) {
    return switch (kind) {
      case "sgd-momentum" -> OptimizerSpec.sgd(0.9, 1e-3);
      case "adam" -> OptimizerSpec.adam(1e-2);
      // Clipped at a norm the synthetic batches' gradients exceed, so clipping acts on every step.
      case "sgd-nesterov" -> OptimizerSpec.sgdNesterov(0.9, 1e-3).withClipNorm(0.05);
      case "adamw" -> OptimizerSpec.adamw(1e-2).withClipNorm(0.05);
      default -> OptimizerSpec.sgd(0, 0);
    };
  }

  @ParameterizedTest
  @ValueSource(strings = {"sgd-momentum", "adam", "sgd", "sgd-nesterov", "adamw"})
  void copyOfStateAndOptimizerStateContinuesBitIdentically(String kind) {
    LabeledArrays data = Synthetic.templates(CNN, 64, 0.5f, 5);
    try (ModelReplica original = Replicas.create(CNN, optimizer(kind), 1);
        ModelReplica copy = Replicas.create(DjlReplicaStateTest.withSeed(CNN, 99), optimizer(kind), 1)) {
      Synthetic.train(original, data, 16, 3, 0.01f);
      copy.writeState(Synthetic.state(original));
      copy.writeOptimizerState(Synthetic.optimizerState(original));
      copy.setOptimizerSteps(original.optimizerSteps());

      LabeledArrays later = Synthetic.slice(data, 16, 48);
      float[] lossA = Synthetic.train(original, later, 16, 3, 0.01f);
      float[] lossB = Synthetic.train(copy, later, 16, 3, 0.01f);
      assertArrayEquals(lossA, lossB);
      assertArrayEquals(Synthetic.state(original), Synthetic.state(copy));
      assertArrayEquals(Synthetic.optimizerState(original), Synthetic.optimizerState(copy));
      assertEquals(6, copy.optimizerSteps());
    }
  }

  @Test
  void adamDependsOnTheRestoredStepCount() {
    LabeledArrays data = Synthetic.templates(CNN, 32, 0.5f, 6);
    try (ModelReplica original = Replicas.create(CNN, optimizer("adam"), 1);
        ModelReplica copy = Replicas.create(CNN, optimizer("adam"), 1)) {
      Synthetic.train(original, data, 16, 2, 0.01f);
      copy.writeState(Synthetic.state(original));
      copy.writeOptimizerState(Synthetic.optimizerState(original));
      // Step count left at 0: bias correction differs, so the copy must diverge.
      Synthetic.train(original, data, 16, 1, 0.01f);
      Synthetic.train(copy, data, 16, 1, 0.01f);
      assertFalse(Arrays.equals(Synthetic.state(original), Synthetic.state(copy)));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sgd-momentum", "adam", "sgd-nesterov", "adamw"})
  void optimizerStateRoundTripsAndHasOneSlotPerMoment(String kind) {
    try (ModelReplica r = Replicas.create(CNN, optimizer(kind), 1)) {
      int moments = kind.startsWith("adam") ? 2 : 1;
      assertEquals(moments * r.trainableSize(), r.optimizerStateSize());
      float[] s = new float[r.optimizerStateSize()];
      SplittableRandom random = new SplittableRandom(8);
      for (int i = 0; i < s.length; i++) {
        s[i] = (float) random.nextDouble();
      }
      r.writeOptimizerState(s);
      assertArrayEquals(s, Synthetic.optimizerState(r));
      assertThrows(DsSyncException.class, () -> r.writeOptimizerState(new float[3]));
    }
  }

  @Test
  void plainSgdHasNoOptimizerState() {
    try (ModelReplica r = Replicas.create(CNN, optimizer("sgd"), 1)) {
      assertEquals(0, r.optimizerStateSize());
    }
  }
}
