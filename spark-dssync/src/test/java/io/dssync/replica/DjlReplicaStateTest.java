package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.models.ModelSpec;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class DjlReplicaStateTest {
  static final ModelSpec CNN = new ModelSpec("cnn", 1, 12, 12, 10, 42);
  static final OptimizerSpec SGD = OptimizerSpec.sgd(0.9, 0);
  /** BatchNorm running mean + variance of the 32- and 64-channel layers. */
  static final int CNN_STATISTICS = 2 * (32 + 64);

  @Test
  void replicasCreatedConcurrentlyFromOneSpecAreBitIdentical() throws Exception {
    CyclicBarrier start = new CyclicBarrier(2);
    Callable<float[]> create = () -> {
      start.await();
      try (ModelReplica r = Replicas.create(CNN, SGD, 1)) {
        return Synthetic.state(r);
      }
    };
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<float[]>> states = pool.invokeAll(List.of(create, create));
      assertArrayEquals(states.get(0).get(), states.get(1).get());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void differentSeedsGiveDifferentInitialParameters() {
    try (ModelReplica a = Replicas.create(CNN, SGD, 1);
        ModelReplica b = Replicas.create(withSeed(CNN, 43), SGD, 1)) {
      assertFalse(Arrays.equals(Synthetic.state(a), Synthetic.state(b)));
    }
  }

  @Test
  void writtenStateIsReadBackAndUsedByTheModel() {
    try (ModelReplica a = Replicas.create(CNN, SGD, 1);
        ModelReplica b = Replicas.create(withSeed(CNN, 7), SGD, 1)) {
      LabeledArrays data = Synthetic.templates(CNN, 20, 0.5f, 1);
      assertTrue(((DjlReplica) a).stateThroughViews(), "PyTorch's CPU parameters are read and written in place");
      float[] random = randomState(a, 3);
      a.writeState(random);
      assertArrayEquals(random, Synthetic.state(a));

      b.writeState(random);
      assertEquals(a.evaluate(data.features(), data.labels(), 20),
          b.evaluate(data.features(), data.labels(), 20));
    }
  }

  @Test
  void stateIsTrainableParametersFollowedByBatchNormStatisticsThatTrainingChanges() {
    try (ModelReplica r = Replicas.create(CNN, SGD, 1)) {
      assertEquals(CNN_STATISTICS, r.stateSize() - r.trainableSize());
      float[] before = Synthetic.state(r);
      int t = r.trainableSize();
      // Fresh statistics: running means 0 then running variances 1, per layer.
      float[] stats = Arrays.copyOfRange(before, t, before.length);
      assertEquals(0f, stats[0]);
      assertEquals(1f, stats[32]);

      Synthetic.train(r, Synthetic.templates(CNN, 16, 0.5f, 2), 16, 1, 0.01f);
      float[] after = Synthetic.state(r);
      for (int i = t; i < after.length; i++) {
        assertNotEquals(before[i], after[i], "running statistic " + (i - t) + " did not move");
      }
    }
  }

  @Test
  void batchNormStatisticsWrittenIntoTheStateChangeEvaluation() {
    try (ModelReplica r = Replicas.create(CNN, SGD, 1)) {
      LabeledArrays data = Synthetic.templates(CNN, 16, 0.5f, 3);
      Evaluation fresh = r.evaluate(data.features(), data.labels(), 16);
      float[] s = Synthetic.state(r);
      for (int i = r.trainableSize(); i < s.length; i++) {
        s[i] += 0.5f;
      }
      r.writeState(s);
      assertNotEquals(fresh.loss(), r.evaluate(data.features(), data.labels(), 16).loss());
    }
  }

  @Test
  void stateOfWrongLengthIsRejectedNamingBothLengths() {
    try (ModelReplica r = Replicas.create(CNN, SGD, 1)) {
      DsSyncException e = assertThrows(DsSyncException.class,
          () -> r.writeState(new float[r.stateSize() - 1]));
      assertEquals(ErrorKind.DATA, e.kind());
      assertTrue(e.getMessage().contains(String.valueOf(r.stateSize())), e.getMessage());
      assertTrue(e.getMessage().contains(String.valueOf(r.stateSize() - 1)), e.getMessage());
      assertThrows(DsSyncException.class, () -> r.readState(new float[r.stateSize() + 1]));
    }
  }

  static ModelSpec withSeed(ModelSpec s, long seed) {
    return new ModelSpec(s.name(), s.channels(), s.height(), s.width(), s.numClasses(), seed);
  }

  static float[] randomState(ModelReplica r, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    float[] s = new float[r.stateSize()];
    for (int i = 0; i < s.length; i++) {
      s[i] = (float) random.nextDouble(0.1, 0.2);
    }
    return s;
  }
}
