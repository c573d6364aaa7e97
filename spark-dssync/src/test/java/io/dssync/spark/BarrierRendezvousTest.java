package io.dssync.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dssync.testing.TestSpark;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The transport's own all-gather returns every task's message in partition order, like Spark's,
 * and leaves the task context's barrier count where Spark's calls expect it: a {@code barrier()}
 * and an {@code allGather} after it still meet the other tasks.
 */
class BarrierRendezvousTest {
  @Test
  void everyTaskGetsAllMessagesInPartitionOrderAndSparksOwnSyncsStillWorkAfterIt() {
    List<String> seen = TestSpark.runBarrier(4, ctx -> {
      int rank = ctx.partitionId();
      String[] first = BarrierRendezvous.allGather(ctx, "first-" + rank);
      ctx.barrier();
      String[] second = ctx.allGather("second-" + rank);
      String[] third = BarrierRendezvous.allGather(ctx, "third-" + rank);
      return String.join(",", first) + "|" + String.join(",", second) + "|" + String.join(",", third);
    });
    String expected = "first-0,first-1,first-2,first-3|second-0,second-1,second-2,second-3"
        + "|third-0,third-1,third-2,third-3";
    assertEquals(List.of(expected, expected, expected, expected), seen);
  }
}
