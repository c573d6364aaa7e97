package io.dssync.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.collective.MessageId;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.spark.network.client.RpcResponseCallback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The notice sockets of the shared-memory path, between two endpoints of this JVM (no Spark). */
class HostSignalsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @TempDir
  Path dir;

  /** What one sender's callbacks heard. */
  private static final class Acks implements RpcResponseCallback {
    int succeeded;
    final List<Throwable> failed = new ArrayList<>();

    @Override
    public void onSuccess(ByteBuffer response) {
      succeeded++;
    }

    @Override
    public void onFailure(Throwable cause) {
      failed.add(cause);
    }
  }

  @Test
  void noticesLandInTheOrderSentAndEachIsAcknowledged() throws Exception {
    List<SharedPartNotice> landed = new ArrayList<>();
    try (HostSignals reader = listen("r0", 0, "inbox-0", landed::add);
        HostSignals sender = listen("r1", 1, "inbox-1", n -> { })) {
      Acks acks = new Acks();
      for (int part = 0; part < 3; part++) {
        sender.notice(0, dir.resolve("r0").toString(), "inbox-0", notice("inbox-0", 1, part), acks);
      }
      assertEquals(3, sender.unacknowledged());
      pumpUntil(reader, () -> landed.size() == 3);
      pumpUntil(sender, () -> acks.succeeded == 3);
      assertEquals(List.of(0, 1, 2), landed.stream().map(n -> n.header().id().part()).toList());
      assertEquals(0, sender.unacknowledged());
      assertTrue(acks.failed.isEmpty(), acks.failed.toString());
    }
  }

  @Test
  void aSenderThatNamesAnotherInboxIsRefusedNamingIt() throws Exception {
    try (HostSignals reader = listen("r0", 0, "inbox-0", n -> { });
        HostSignals sender = listen("r1", 1, "inbox-1", n -> { })) {
      sender.notice(0, dir.resolve("r0").toString(), "inbox-of-an-earlier-stage", notice("inbox-0", 1, 0), new Acks());
      HostSignals.Failure failure = assertThrows(HostSignals.Failure.class, () -> pumpUntil(reader, () -> false));
      assertTrue(failure.getMessage()
          .contains("refuses a notice socket from rank 1 for inbox inbox-of-an-earlier-stage"),
          failure.getMessage());
    }
  }

  @Test
  void aNoticeInAnotherRanksNameIsRefused() throws Exception {
    try (HostSignals reader = listen("r0", 0, "inbox-0", n -> { });
        HostSignals sender = listen("r1", 1, "inbox-1", n -> { })) {
      sender.notice(0, dir.resolve("r0").toString(), "inbox-0", notice("inbox-0", 2, 0), new Acks());
      HostSignals.Failure failure = assertThrows(HostSignals.Failure.class, () -> pumpUntil(reader, () -> false));
      assertEquals(1, failure.peer());
      assertTrue(failure.getMessage().contains("rank 1 sent a notice in the name of rank 2"), failure.getMessage());
    }
  }

  /**
   * A reader that is gone (it closed its socket unread, or its folder is no more) does not fail the
   * sender: the stage fails with the reader's own error, and the parts stay unacknowledged, which
   * close() reports at its deadline.
   */
  @Test
  void aReaderThatIsGoneLeavesItsPartsUnacknowledgedWithoutFailingTheSender() throws Exception {
    try (HostSignals sender = listen("r1", 1, "inbox-1", n -> { })) {
      Acks acks = new Acks();
      HostSignals reader = listen("r0", 0, "inbox-0", n -> { });
      sender.notice(0, dir.resolve("r0").toString(), "inbox-0", notice("inbox-0", 1, 0), acks);
      reader.close(); // without reading the notice
      for (int i = 0; i < 5; i++) {
        sender.pump(TimeUnit.MILLISECONDS.toNanos(20));
      }
      sender.notice(0, dir.resolve("r0").toString(), "inbox-0", notice("inbox-0", 1, 1), acks);
      sender.notice(2, dir.resolve("no-such-folder").toString(), "inbox-2", notice("inbox-2", 1, 2), acks);
      assertEquals(3, sender.unacknowledged());
      assertEquals(0, acks.succeeded);
      assertTrue(acks.failed.isEmpty(), acks.failed.toString());
    }
  }

  private HostSignals listen(String folder, int rank, String inbox, HostSignals.Lander lander) throws Exception {
    Files.createDirectories(dir.resolve(folder));
    return HostSignals.listen(dir.resolve(folder).toString(), rank, 4, inbox, lander, TIMEOUT);
  }

  private static SharedPartNotice notice(String inbox, int sender, int part) {
    return new SharedPartNotice(new PartHeader(inbox, sender, new MessageId(3, 0, 0, 0, part), 16),
        "/dev/shm/dssync-0-1-" + inbox + "/part-" + part);
  }

  /** Pumps until {@code done}; fails the test after {@link #TIMEOUT}. */
  private static void pumpUntil(HostSignals signals, BooleanSupplier done) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!done.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "not done within " + TIMEOUT);
      signals.pump(TimeUnit.MILLISECONDS.toNanos(50));
    }
  }
}
