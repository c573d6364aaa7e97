package io.dssync.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class InMemoryTransportTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @Test
  void publishCopiesTheSliceSoTheSenderMayReuseItsArray() {
    List<InMemoryTransport> t = InMemoryTransport.create(2);
    float[] data = {1, 2, 3, 4};
    MessageId id = new MessageId(0, 0, 0, 0);
    t.get(0).publish(id, data, 1, 2, new int[] {1});
    data[1] = 99;
    float[] dst = new float[3];
    t.get(1).fetch(0, id, dst, 1, 2, TIMEOUT);
    assertArrayEquals(new float[] {0, 2, 3}, dst);
  }

  @Test
  void aChunkIsDroppedOnlyAfterAllItsReadersFetchedIt() {
    List<InMemoryTransport> t = InMemoryTransport.create(3);
    MessageId id = new MessageId(5, 1, 1, 0);
    t.get(0).publish(id, new float[] {7}, 0, 1, new int[] {1, 2});
    assertEquals(1, t.get(0).pendingChunks());
    t.get(1).fetch(0, id, new float[1], 0, 1, TIMEOUT);
    assertEquals(1, t.get(2).pendingChunks(), "rank 2 has not fetched yet");
    t.get(2).fetch(0, id, new float[1], 0, 1, TIMEOUT);
    assertEquals(0, t.get(2).pendingChunks());
  }

  @Test
  void fetchWaitsForALaterPublish() {
    List<InMemoryTransport> t = InMemoryTransport.create(2);
    MessageId id = new MessageId(1, 0, 0, 1);
    float[] dst = new float[2];
    Members.runAll(2, rank -> {
      if (rank == 1) {
        t.get(1).fetch(0, id, dst, 0, 2, TIMEOUT);
      } else {
        Thread.sleep(50); // let the reader wait first
        t.get(0).publish(id, new float[] {4, 5}, 0, 2, new int[] {1});
      }
    });
    assertArrayEquals(new float[] {4, 5}, dst);
    assertEquals(0, t.get(0).pendingChunks());
  }

  @Test
  void aTimedOutFetchNamesRankPeerAndStepAndLeavesNothingBehind() {
    List<InMemoryTransport> t = InMemoryTransport.create(3);
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> t.get(2).fetch(1, new MessageId(9, 0, 1, 1), new float[1], 0, 1, Duration.ofMillis(50)));
    assertEquals(ErrorKind.SYNC_TIMEOUT, e.kind());
    assertTrue(e.getMessage().contains("Rank 2 waited 50 ms at step 9 for all-gather chunk 1"), e.getMessage());
    assertTrue(e.getMessage().contains("from rank 1"), e.getMessage());
    assertEquals(0, t.get(0).pendingChunks());
  }

  @Test
  void publishingTheSameIdTwiceIsABug() {
    List<InMemoryTransport> t = InMemoryTransport.create(2);
    MessageId id = new MessageId(0, 0, 0, 0);
    t.get(0).publish(id, new float[1], 0, 1, new int[] {1});
    assertThrows(IllegalStateException.class, () -> t.get(0).publish(id, new float[1], 0, 1, new int[] {1}));
  }

  @Test
  void theSameIdFromDifferentSendersAreDifferentChunks() {
    List<InMemoryTransport> t = InMemoryTransport.create(3);
    MessageId id = new MessageId(0, 0, 0, 2);
    t.get(0).publish(id, new float[] {1}, 0, 1, new int[] {2});
    t.get(1).publish(id, new float[] {2}, 0, 1, new int[] {2});
    float[] dst = new float[2];
    t.get(2).fetch(1, id, dst, 1, 1, TIMEOUT);
    t.get(2).fetch(0, id, dst, 0, 1, TIMEOUT);
    assertArrayEquals(new float[] {1, 2}, dst);
  }

  @Test
  void statsCountBytesAndWaiting() {
    List<InMemoryTransport> t = InMemoryTransport.create(2);
    MessageId id = new MessageId(0, 0, 0, 0);
    t.get(0).publish(id, new float[8], 0, 8, new int[] {1});
    t.get(1).fetch(0, id, new float[8], 0, 8, TIMEOUT);
    assertEquals(32, t.get(0).stats().snapshot().bytesSent());
    assertEquals(32, t.get(1).stats().snapshot().bytesReceived());
    assertTrue(t.get(1).stats().snapshot().waitNanos() >= 0);
  }

  @Test
  void aClosedTransportRefusesWork() {
    InMemoryTransport t = InMemoryTransport.create(2).get(0);
    t.close();
    assertThrows(IllegalStateException.class,
        () -> t.publish(new MessageId(0, 0, 0, 0), new float[1], 0, 1, new int[] {1}));
  }
}
