package io.dssync.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.collective.Landing;
import io.dssync.collective.MessageId;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Where parts land: announced ones straight in the reader's array, others in pooled buffers. */
class InboxTest {
  private static final MessageId ID = new MessageId(3, 0, 0, 1);

  @Test
  void anAnnouncedPartLandsInTheReadersArrayAsTheMeanOfTwo() {
    Inbox inbox = new Inbox("i", 0);
    float[] mine = {9, 1, 3, 5, 9};
    inbox.expect(1, ID, mine, 1, 3, Landing.MEAN_OF_TWO);
    Inbox.Parcel parcel = inbox.startFilling(1, ID, 3);
    assertSame(mine, parcel.floats);
    assertFalse(parcel.pooled);
    parcel.landing.apply(new float[] {3, 5, 7}, 0, parcel.floats, parcel.offset, 3);
    inbox.finish(parcel);
    assertSame(parcel, inbox.take(1, ID, System.nanoTime() + 1_000_000_000L, null));
    assertArrayEquals(new float[] {9, 2, 4, 6, 9}, mine);
  }

  @Test
  void aPartAlreadyArrivingIsNotRedirectedByALateAnnouncement() {
    Inbox inbox = new Inbox("i", 0);
    Inbox.Parcel parcel = inbox.startFilling(1, ID, 2);
    float[] mine = new float[2];
    inbox.expect(1, ID, mine, 0, 2, Landing.COPY);
    assertNotSame(mine, parcel.floats);
    assertTrue(parcel.pooled);
    assertEquals(Landing.COPY, parcel.landing);
  }

  @Test
  void anAnnouncementOfAnotherLengthFallsBackToABufferOfTheSentLength() {
    Inbox inbox = new Inbox("i", 0);
    float[] mine = new float[4];
    inbox.expect(1, ID, mine, 0, 4, Landing.COPY);
    Inbox.Parcel parcel = inbox.startFilling(1, ID, 3);
    assertNotSame(mine, parcel.floats);
    assertEquals(3, parcel.length); // take() then reports the mismatch against the 4 it wanted
  }

  @Test
  void afterTheReaderGaveUpALatePartNoLongerLandsInItsArray() {
    Inbox inbox = new Inbox("i", 0);
    float[] mine = new float[2];
    inbox.expect(1, ID, mine, 0, 2, Landing.COPY);
    assertNull(inbox.take(1, ID, System.nanoTime() + 1_000_000L, null));
    Inbox.Parcel late = inbox.startFilling(1, ID, 2);
    assertNotSame(mine, late.floats);
  }

  /** What a peer that gave up on this rank is told: idle, waiting (for whom), gave up (on whom). */
  @Test
  void theInboxTellsWhatItsTaskWaitsForAndWhatItGaveUpOn() throws Exception {
    Inbox inbox = new Inbox("i", 0);
    assertEquals(PeerWait.State.IDLE, roundTrip(inbox.peerWait()).state());

    Thread reader = new Thread(() -> inbox.take(2, ID, System.nanoTime() + 10_000_000_000L, null));
    reader.start();
    long until = System.nanoTime() + 5_000_000_000L;
    while (inbox.peerWait().state() != PeerWait.State.WAITING && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    PeerWait waiting = roundTrip(inbox.peerWait());
    assertEquals(PeerWait.State.WAITING, waiting.state());
    assertEquals(2, waiting.sender());
    assertEquals(ID, waiting.id());
    inbox.fillWhole(2, ID, 1, ByteBuffer.allocate(4));
    reader.join(5_000);
    assertEquals(PeerWait.State.IDLE, inbox.peerWait().state(), "a wait that ended is no longer reported");

    MessageId other = new MessageId(4, 1, 1, 0, 2);
    assertNull(inbox.take(3, other, System.nanoTime() + 20_000_000L, null));
    inbox.close();
    PeerWait gaveUp = roundTrip(inbox.peerWait());
    assertEquals(PeerWait.State.GAVE_UP, gaveUp.state(), "still told after the inbox closed");
    assertEquals(3, gaveUp.sender());
    assertEquals(other, gaveUp.id());
    assertTrue(gaveUp.waitedMs() >= 19, gaveUp.toString());
    assertTrue(gaveUp.describe(0).startsWith("rank 0 gave up after "), gaveUp.describe(0));
    assertTrue(gaveUp.describe(0).endsWith(" at step 4 waiting for all-gather chunk 0 part 2 (round 1) from rank 3"),
        gaveUp.describe(0));
  }

  @Test
  void aWaitQueryCarriesTheInboxIdAndIsReadBack() {
    ByteBuffer query = PeerWait.query("inbox-7");
    assertEquals(PeerWait.QUERY_KIND, query.get());
    assertEquals("inbox-7", PeerWait.queriedInbox(query));
  }

  private static PeerWait roundTrip(PeerWait wait) {
    return PeerWait.decode(wait.encode());
  }
}
