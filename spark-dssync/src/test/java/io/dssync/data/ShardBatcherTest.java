package io.dssync.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Batching order on a generated shard whose features encode the example index (generated data:
 * these tests check ordering, not learning).
 */
class ShardBatcherTest {
  private static final int N = 10;
  private static final int F = 3;

  /** Example i has features (i, 100+i, 200+i) and label i, so a batch reveals which examples it holds. */
  private static LabeledArrays shard(int n) {
    float[] features = new float[n * F];
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < F; j++) {
        features[i * F + j] = 100 * j + i;
      }
      labels[i] = i;
    }
    return new LabeledArrays(features, labels, F, n);
  }

  /** The example indices of steps [0, steps) in one uninterrupted run of one batcher. */
  private static int[] run(ShardBatcher batcher, long from, int steps) {
    int b = batcher.batchSize();
    float[] features = new float[b * F];
    float[] labels = new float[b];
    int[] seen = new int[steps * b];
    for (int s = 0; s < steps; s++) {
      batcher.fill(from + s, features, labels);
      for (int j = 0; j < b; j++) {
        // Features and label must come from the same example.
        assertEquals((int) labels[j], (int) features[j * F]);
        assertEquals(200 + (int) labels[j], (int) features[j * F + 2]);
        seen[s * b + j] = (int) labels[j];
      }
    }
    return seen;
  }

  @Test
  void sameSeedAndRankGiveTheSameBatches() {
    assertArrayEquals(run(new ShardBatcher(shard(N), 4, 7, 2), 0, 12),
        run(new ShardBatcher(shard(N), 4, 7, 2), 0, 12));
  }

  @Test
  void restartAtAnyStepMatchesAnUninterruptedRun() {
    int[] uninterrupted = run(new ShardBatcher(shard(N), 3, 11, 0), 0, 20);
    for (int k : new int[] {1, 3, 4, 7, 19}) {
      int[] resumed = run(new ShardBatcher(shard(N), 3, 11, 0), k, 20 - k);
      assertArrayEquals(Arrays.copyOfRange(uninterrupted, 3 * k, 60), resumed, "restart at " + k);
    }
  }

  @Test
  void jumpingBackwardsAndForwardsGivesTheSameBatchAsInOrder() {
    ShardBatcher batcher = new ShardBatcher(shard(N), 4, 5, 1);
    int[] inOrder = run(new ShardBatcher(shard(N), 4, 5, 1), 0, 10);
    for (int step : new int[] {9, 0, 5, 2, 8}) {
      assertArrayEquals(Arrays.copyOfRange(inOrder, 4 * step, 4 * step + 4), run(batcher, step, 1));
    }
  }

  @Test
  void everyExampleAppearsExactlyOncePerEpochAcrossEpochBoundaries() {
    // Batch 4 over 10 examples: batches straddle epoch boundaries.
    int[] seen = run(new ShardBatcher(shard(N), 4, 3, 0), 0, 10);
    for (int epoch = 0; epoch < 4; epoch++) {
      int[] one = Arrays.copyOfRange(seen, epoch * N, epoch * N + N);
      Arrays.sort(one);
      assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, one, "epoch " + epoch);
    }
  }

  @Test
  void differentRanksAndEpochsGetDifferentOrders() {
    int[] rank0 = run(new ShardBatcher(shard(50), 50, 9, 0), 0, 3);
    int[] rank1 = run(new ShardBatcher(shard(50), 50, 9, 1), 0, 3);
    assertFalse(Arrays.equals(Arrays.copyOf(rank0, 50), Arrays.copyOf(rank1, 50)));
    assertFalse(Arrays.equals(Arrays.copyOfRange(rank0, 0, 50), Arrays.copyOfRange(rank0, 50, 100)));
    assertFalse(Arrays.equals(Arrays.copyOfRange(rank0, 50, 100), Arrays.copyOfRange(rank0, 100, 150)));
    int[] otherSeed = run(new ShardBatcher(shard(50), 50, 10, 0), 0, 1);
    assertFalse(Arrays.equals(Arrays.copyOf(rank0, 50), otherSeed));
  }

  @Test
  void batchLargerThanTheShardWrapsOverSeveralEpochs() {
    ShardBatcher batcher = new ShardBatcher(shard(3), 7, 1, 0);
    int[] seen = run(batcher, 0, 3); // 21 examples = 7 epochs of 3
    for (int epoch = 0; epoch < 7; epoch++) {
      int[] one = Arrays.copyOfRange(seen, epoch * 3, epoch * 3 + 3);
      Arrays.sort(one);
      assertArrayEquals(new int[] {0, 1, 2}, one);
    }
    assertEquals(4, batcher.epochOf(2)); // step 2 starts at example 14, in epoch 4
  }

  @Test
  void epochOfCountsExamplesNotSteps() {
    ShardBatcher batcher = new ShardBatcher(shard(N), 4, 0, 0);
    assertEquals(0, batcher.epochOf(0));
    assertEquals(0, batcher.epochOf(2)); // first example 8
    assertEquals(1, batcher.epochOf(3)); // first example 12
    assertEquals(2, batcher.epochOf(5)); // first example 20
  }

  @Test
  void emptyShardIsRejectedNamingTheRank() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> new ShardBatcher(new LabeledArrays(new float[0], new int[0], F, 2), 4, 0, 3));
    assertTrue(e.getMessage().contains("rank 3") && e.getMessage().contains("empty"), e.getMessage());
  }

  @Test
  void wrongBufferLengthIsRejected() {
    ShardBatcher batcher = new ShardBatcher(shard(N), 4, 0, 0);
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> batcher.fill(0, new float[4 * F - 1], new float[4]));
    assertTrue(e.getMessage().contains("length 11 but 12"), e.getMessage());
  }
}
