package io.dssync.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dssync.collective.MessageId;
import io.dssync.config.ProcessSettings;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/** The shared-memory folder of one task, the RPC messages of the transport, and when shared memory may be used. */
class SharedMemoryFolderTest {
  @Test
  void aPartWrittenByTheSenderIsReadThroughAnotherMappingAndTheFolderIsGoneAfterClose() throws Exception {
    SharedMemoryFolder folder = SharedMemoryFolder.create("inbox-a").orElse(null);
    assumeTrue(folder != null, "this host has no writable /dev/shm");
    Path path = Path.of(folder.path());
    try {
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
      assertTrue(SharedMemoryFolder.reachable(folder.path(), "inbox-a"));
      assertFalse(SharedMemoryFolder.reachable(folder.path(), "inbox-b"), "the hello names another inbox");
      assertFalse(SharedMemoryFolder.reachable("/tmp", "inbox-a"), "only dssync folders under /dev/shm");

      SharedMemoryFolder.MappedPart part = folder.allocate(4 * 3);
      FloatCodec.encode(new float[] {1.5f, -0f, Float.MIN_VALUE}, 0, 3, part.buffer());
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(part.file()))));
      MappedByteBuffer other = SharedMemoryFolder.mapForReading(part.file());
      ByteBuffer le = other.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      assertEquals(Float.floatToRawIntBits(1.5f), le.getInt(0));
      assertEquals(Float.floatToRawIntBits(-0f), le.getInt(4));
      assertEquals(Float.floatToRawIntBits(Float.MIN_VALUE), le.getInt(8));
      SharedMemoryFolder.unmap(other);
    } finally {
      folder.close();
    }
    assertFalse(Files.exists(path), "close removes the folder and its files");
  }

  @Test
  void aReaderLandsAPartFromItsSendersFolderAndRefusesAFileAnywhereElse() throws Exception {
    SharedMemoryFolder folder = SharedMemoryFolder.create("inbox-sender").orElse(null);
    assumeTrue(folder != null, "this host has no writable /dev/shm");
    Inbox inbox = new Inbox("inbox-reader", 1);
    SharedPartReader reader = new SharedPartReader(inbox);
    try {
      reader.knowFolders(new String[] {folder.path(), PeerAddress.NO_FOLDER});
      SharedMemoryFolder.MappedPart part = folder.allocate(2 * Float.BYTES);
      FloatCodec.encode(new float[] {3.5f, -2f}, 0, 2, part.buffer());
      MessageId id = new MessageId(4, 0, 0, 1);
      reader.land(new SharedPartNotice(new PartHeader("inbox-reader", 0, id, 2), part.file()));
      Inbox.Parcel parcel = inbox.take(0, id, System.nanoTime() + 1_000_000_000L, null);
      assertEquals(3.5f, parcel.floats[0]);
      assertEquals(-2f, parcel.floats[1]);

      for (String elsewhere : new String[] {"/etc/hostname", folder.path() + "/../x/part-0", part.file()}) {
        int sender = elsewhere.equals(part.file()) ? 1 : 0; // rank 1 has no folder: not even rank 0's file
        SharedPartNotice bad = new SharedPartNotice(
            new PartHeader("inbox-reader", sender, new MessageId(5, 0, 0, 1), 1), elsewhere);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> reader.land(bad));
        assertTrue(e.getMessage().contains("not in that rank's shared-memory folder"), e.getMessage());
      }
    } finally {
      reader.close();
      folder.close();
    }
  }

  @Test
  void aFolderLeftByAProcessThatIsGoneIsRemovedByTheNextOne() throws Exception {
    SharedMemoryFolder live = SharedMemoryFolder.create("inbox-live").orElse(null);
    assumeTrue(live != null, "this host has no writable /dev/shm");
    try {
      // The same name pattern as a real folder, for a process id no process has (above pid_max).
      String name = Path.of(live.path()).getFileName().toString()
          .replaceFirst("-" + ProcessHandle.current().pid() + "-", "-4194305-");
      Path abandoned = Files.createDirectory(Path.of("/dev/shm", name.replace("inbox-live", "inbox-dead")));
      Files.writeString(abandoned.resolve("part-0"), "leftover");
      SharedMemoryFolder.create("inbox-next").orElseThrow().close();
      assertFalse(Files.exists(abandoned), "the dead process's folder is removed");
      assertTrue(Files.exists(Path.of(live.path())), "a live process's folder stays");
    } finally {
      live.close();
    }
  }

  @Test
  void aNoticeReadsBackWhatWasWritten() {
    PartHeader header = new PartHeader("inbox-7", 3, new MessageId(12, 1, 0, 2, 5), 1_048_576);
    SharedPartNotice notice = new SharedPartNotice(header, "/dev/shm/dssync-1-2-inbox/part-4");
    ByteBuffer message = notice.encode();
    assertEquals(SharedPartNotice.KIND, message.get(), "the first byte says what the message carries");
    assertEquals(notice, SharedPartNotice.decode(message));
  }

  @Test
  void anInlinePartCarriesItsHeaderAndItsFloatsInOneMessage() {
    float[] data = {9f, 1.25f, -0f, Float.MAX_VALUE, 7f};
    PartHeader header = new PartHeader("inbox-7", 3, new MessageId(12, 1, 0, 2, 5), 3);
    ByteBuffer message = InlinePart.encode(header, data, 1, 3);
    assertEquals(InlinePart.KIND, message.get());
    assertEquals(header, PartHeader.decode(message));
    float[] got = new float[3];
    message.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(got);
    assertEquals(Float.floatToRawIntBits(1.25f), Float.floatToRawIntBits(got[0]));
    assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(got[1]));
    assertEquals(Float.floatToRawIntBits(Float.MAX_VALUE), Float.floatToRawIntBits(got[2]));
    assertEquals(3 * Float.BYTES, message.remaining(), "nothing after the floats");
    assertTrue(InlinePart.fits(16 * 1024) && !InlinePart.fits(16 * 1024 + 1), "64 KiB inline at most");
  }

  @Test
  void sharedMemoryIsOnByDefaultAndOffWhenSwitchedOffOrWhenSparkEncrypts() {
    assertTrue(PushTransport.sharedMemoryAllowed(new SparkConf(false)));
    assertFalse(PushTransport.sharedMemoryAllowed(
        new SparkConf(false).set(ProcessSettings.SHARED_MEMORY.key(), "false")));
    assertFalse(PushTransport.sharedMemoryAllowed(new SparkConf(false).set("spark.network.crypto.enabled", "true")));
    assertFalse(PushTransport.sharedMemoryAllowed(new SparkConf(false).set("spark.io.encryption.enabled", "true")));
    assertFalse(PushTransport.sharedMemoryAllowed(new SparkConf(false).set("spark.ssl.rpc.enabled", "true")));
  }
}
