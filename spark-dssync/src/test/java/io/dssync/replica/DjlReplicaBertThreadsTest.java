package io.dssync.replica;

import io.dssync.models.ModelSpec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.fetch.DatasetCacheDir;
import io.dssync.data.DatasetSplits;
import io.dssync.data.KjvDatasets;
import io.dssync.data.LabeledArrays;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Four BERT replicas on four threads of one JVM (what Spark's local[4] runs) while the JVM
 * collects garbage, as a busy Spark driver does. Before {@code AutogradScalars}, the constants of
 * the loss and of attention scaling lived in Java buffers that a GC could free while autograd
 * still used them, and this test hit NaN within a few steps. Now every loss must stay finite and
 * each replica must end bit for bit where the same training ends alone on one thread, as it does
 * in its own executor JVM.
 */
class DjlReplicaBertThreadsTest {
  private static final int WORKERS = 4;
  private static final int STEPS = 100;
  private static final int BATCH = 32;

  @Test
  void bertReplicasOnFourThreadsUnderGcTrainLikeSeparateProcesses() throws Exception {
    DatasetSplits data = KjvDatasets.books(DatasetCacheDir.defaultDir(), 2_000, 32);
    ModelSpec spec = new ModelSpec("bert-cls-L1-H2-D32", 1, 1, 32, 4, 42, data.vocabSize());
    OptimizerSpec adam = OptimizerSpec.adam(0);
    List<LabeledArrays> shards = shards(data.train());

    AtomicBoolean training = new AtomicBoolean(true);
    Thread collector = new Thread(() -> {
      // Garbage and explicit collections, so freed direct buffers are reclaimed mid-step.
      while (training.get()) {
        byte[][] junk = new byte[32][];
        for (int i = 0; i < junk.length; i++) {
          junk[i] = new byte[1 << 20];
        }
        System.gc();
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "gc-pressure");
    collector.setDaemon(true);
    collector.start();

    CyclicBarrier start = new CyclicBarrier(WORKERS);
    List<Callable<float[]>> tasks = new ArrayList<>();
    for (int w = 0; w < WORKERS; w++) {
      LabeledArrays shard = shards.get(w);
      tasks.add(() -> {
        try (ModelReplica r = Replicas.create(spec, adam, 1)) {
          start.await();
          float[] losses = Synthetic.train(r, shard, BATCH, STEPS, 0.002f);
          for (int s = 0; s < STEPS; s++) {
            assertTrue(Float.isFinite(losses[s]), "loss " + losses[s] + " at step " + s);
          }
          double first = mean(losses, 0, 10);
          double last = mean(losses, STEPS - 10, STEPS);
          assertTrue(last < first, "mean loss of the first and last 10 steps: " + first + " -> " + last);
          return Synthetic.state(r);
        }
      });
    }
    ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
    List<Future<float[]>> parallel;
    try {
      parallel = pool.invokeAll(tasks);
      for (Future<float[]> f : parallel) {
        f.get(); // rethrows a worker's assertion
      }
    } finally {
      training.set(false);
      pool.shutdown();
      pool.awaitTermination(30, TimeUnit.SECONDS);
    }
    for (int w = 0; w < WORKERS; w++) {
      try (ModelReplica alone = Replicas.create(spec, adam, 1)) {
        Synthetic.train(alone, shards.get(w), BATCH, STEPS, 0.002f);
        assertArrayEquals(Synthetic.state(alone), parallel.get(w).get(), "replica " + w);
      }
    }
  }

  private static double mean(float[] values, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += values[i];
    }
    return sum / (to - from);
  }

  /** The examples in a seeded random order (the loader keeps book order), dealt out to the workers. */
  private static List<LabeledArrays> shards(LabeledArrays all) {
    int[] order = new int[all.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    SplittableRandom random = new SplittableRandom(7);
    for (int i = order.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    List<LabeledArrays> out = new ArrayList<>();
    int fs = all.featureSize();
    for (int w = 0; w < WORKERS; w++) {
      int n = (all.size() - w + WORKERS - 1) / WORKERS;
      float[] f = new float[n * fs];
      float[] l = new float[n];
      for (int i = 0; i < n; i++) {
        int example = order[w + i * WORKERS];
        System.arraycopy(all.features(), example * fs, f, i * fs, fs);
        l[i] = all.labels()[example];
      }
      out.add(new LabeledArrays(f, l, fs, all.labelSpec()));
    }
    return out;
  }
}
