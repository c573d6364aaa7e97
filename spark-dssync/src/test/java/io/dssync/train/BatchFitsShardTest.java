package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import org.junit.jupiter.api.Test;

/** A batch must fit in each worker's shard of the training examples. */
class BatchFitsShardTest {
  @Test
  void aBatchLargerThanAWorkersShardIsRefusedNamingTheShardAndTheLargestBatch() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Preflight.requireBatchFitsShard(100_000, 4, 60_000));
    assertTrue(e.getMessage().startsWith("Invalid --batch-size = 100000: each of the 4 workers' shards holds about"
        + " 15000 of the 60000 training examples"), e.getMessage());
    assertTrue(e.getMessage().contains("Use --batch-size 15000 or less"), e.getMessage());
  }

  @Test
  void aBatchThatFillsEachShardExactlyOnceIsAccepted() {
    assertDoesNotThrow(() -> Preflight.requireBatchFitsShard(64, 4, 256));
    assertThrows(DsSyncException.class, () -> Preflight.requireBatchFitsShard(64, 4, 255));
  }
}
