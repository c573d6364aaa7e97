package io.dssync.replica;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.pytorch.jni.JniUtils;
import io.dssync.data.LabeledArrays;
import io.dssync.models.ModelSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Spark local[N] runs N training tasks in one JVM; they must not interfere. */
class DjlReplicaConcurrencyTest {
  static final ModelSpec CNN = DjlReplicaStateTest.CNN;

  @ParameterizedTest
  @ValueSource(ints = {2, 4})
  void replicasTrainingOnParallelThreadsMatchSequentialTraining(int workers) throws Exception {
    List<LabeledArrays> shards = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      shards.add(Synthetic.templates(CNN, 64, 0.5f, 100 + w));
    }
    CyclicBarrier start = new CyclicBarrier(workers);
    List<Callable<float[]>> tasks = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      LabeledArrays shard = shards.get(w);
      tasks.add(() -> {
        try (ModelReplica r = Replicas.create(CNN, OptimizerSpec.sgd(0.9, 1e-4), 1)) {
          start.await();
          Synthetic.train(r, shard, 16, 4, 0.02f);
          // The intra-op thread cap holds on threads the engine did not start on.
          assertEquals(1, JniUtils.getNumThreads());
          return Synthetic.state(r);
        }
      });
    }
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    List<Future<float[]>> parallel;
    try {
      parallel = pool.invokeAll(tasks);
    } finally {
      pool.shutdown();
    }
    for (int w = 0; w < workers; w++) {
      try (ModelReplica r = Replicas.create(CNN, OptimizerSpec.sgd(0.9, 1e-4), 1)) {
        Synthetic.train(r, shards.get(w), 16, 4, 0.02f);
        assertArrayEquals(Synthetic.state(r), parallel.get(w).get(), "worker " + w);
      }
    }
  }
}
