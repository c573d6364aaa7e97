package io.dssync.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.testing.TestSpark;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingData;
import io.dssync.train.TrainingResult;
import io.dssync.transport.OpenTransports;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Over a long run of many short steps, executor block-manager storage memory and driver heap
 * stay flat: blocks of finished steps are removed. A tiny synthetic 10-feature shape keeps steps
 * short; this is a resource test, not an accuracy claim. Samples are taken between stages (a
 * barrier job of one task per executor, and the driver heap after a GC). Set
 * {@code -Ddssync.longRunSteps=N} for a longer run by hand.
 */
class ResourceFlatnessTest {
  /** Less than half of one step's chunk of this model (36,227 floats): no step may leave data behind. */
  private static final long STORAGE_BOUND_BYTES = 64 * 1024;
  private static final long HEAP_BOUND_BYTES = 48L * 1024 * 1024;

  /** What one executor holds between stages. */
  record ExecutorSample(String executor, long storageBytes, int openTransports) implements Serializable {}

  @Test
  void executorStorageAndDriverHeapStayFlatOverThousandsOfSteps() {
    SparkSession spark = TestSpark.session();
    int steps = Integer.getInteger("dssync.longRunSteps", 1_000);
    int workers = 4;
    int batch = 8;
    int perStage = Math.max(200, steps / 5);
    LabeledArrays train = synthetic(4_000);
    int epochs = Math.max(1, steps / (train.size() / (workers * batch)));
    TrainerConfig config = TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, workers).set(TrainerConfig.SCHEDULE, "random").set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.BATCH_SIZE, batch).set(TrainerConfig.EPOCHS, epochs)
        .set(TrainerConfig.STEPS_PER_STAGE, perStage).set(TrainerConfig.LEARNING_RATE, 0.01)
        .set(TrainerConfig.SLOT_WAIT_MS, 30_000).set(TrainerConfig.SYNC_TIMEOUT_MS, 30_000).build();
    List<Long> heap = new ArrayList<>();
    List<List<ExecutorSample>> storage = new ArrayList<>();
    TrainingResult result = new DsSyncTrainer(spark, config)
        .withProgress((m, s, stages, total) -> {
          storage.add(TestSpark.runBarrier(workers, ctx -> sample()));
          heap.add(driverHeapAfterGc());
          System.out.printf("[resources] after step %d: driver heap %.1f MiB, executor storage %s%n", m.endStep(),
              heap.get(heap.size() - 1) / 1048576.0, storage.get(storage.size() - 1));
        })
        .fit(new TrainingData(TestSparkFrames.of(spark, train, workers), "features", "label", 1, 1, 10, 3, null));
    assertTrue(result.totalSteps() >= 1_000, "a long run: " + result.totalSteps() + " steps");
    for (List<ExecutorSample> stage : storage) {
      assertTrue(stage.stream().allMatch(e -> e.openTransports() == 0), "no transport outlives its stage: " + stage);
    }
    // Per executor (ranks move between executors from stage to stage): the last sample may not
    // exceed the smallest one by more than the bound. The first sample may be higher: the input
    // blocks of the sharding job are unpersisted asynchronously.
    java.util.Map<String, List<Long>> byExecutor = new java.util.TreeMap<>();
    storage.forEach(stage -> stage.forEach(e -> byExecutor.computeIfAbsent(e.executor(), k -> new ArrayList<>())
        .add(e.storageBytes())));
    byExecutor.forEach((executor, bytes) -> {
      long growth = bytes.get(bytes.size() - 1) - bytes.stream().mapToLong(Long::longValue).min().orElseThrow();
      System.out.printf("[resources] executor %s storage memory samples (bytes): %s%n", executor, bytes);
      assertTrue(growth <= STORAGE_BOUND_BYTES,
          "executor " + executor + " storage grew " + growth + " bytes: " + bytes);
    });
    // Compare the last samples with the early ones: a leak of one step's state (~150 KB) per step
    // would add hundreds of MiB over the run.
    long early = Math.min(heap.get(0), heap.get(1));
    long late = heap.get(heap.size() - 1);
    System.out.printf("[resources] %d steps: driver heap %.1f -> %.1f MiB; storage samples %d%n", result.totalSteps(),
        early / 1048576.0, late / 1048576.0, storage.size());
    assertTrue(late - early <= HEAP_BOUND_BYTES, "driver heap grew " + (late - early) / 1048576 + " MiB");
    assertEquals(result.history().size(), storage.size());
  }

  private static ExecutorSample sample() {
    return new ExecutorSample(SparkEnv.get().executorId(), SparkEnv.get().memoryManager().storageMemoryUsed(),
        OpenTransports.inThisJvm());
  }

  private static long driverHeapAfterGc() {
    Runtime rt = Runtime.getRuntime();
    System.gc();
    return rt.totalMemory() - rt.freeMemory();
  }

  /** Three classes separated by the sign pattern of the first features; learnable but tiny. */
  private static LabeledArrays synthetic(int n) {
    SplittableRandom random = new SplittableRandom(3);
    float[] f = new float[n * 10];
    int[] l = new int[n];
    for (int i = 0; i < n; i++) {
      l[i] = random.nextInt(3);
      for (int j = 0; j < 10; j++) {
        f[i * 10 + j] = (float) (random.nextGaussian() + (j == l[i] ? 2 : 0));
      }
    }
    return new LabeledArrays(f, l, 10, 3);
  }
}
