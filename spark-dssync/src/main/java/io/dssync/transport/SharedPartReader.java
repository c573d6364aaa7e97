package io.dssync.transport;

import java.nio.MappedByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * Receiver side of the shared-memory path: lands a part from the sender's file, mapped once per file
 * and kept for the stage (a sender reuses its buffers every step). Runs on the network thread; the
 * monitor keeps {@link #close} from unmapping a file while a part is being read from it.
 */
final class SharedPartReader {
  private final Inbox inbox;
  private final Map<String, MappedByteBuffer> mappings = new HashMap<>();
  private boolean closed;

  SharedPartReader(Inbox inbox) {
    this.inbox = inbox;
  }

  synchronized void land(SharedPartNotice notice) {
    PartHeader header = notice.header();
    if (closed || !header.inboxId().equals(inbox.id())) {
      throw new IllegalStateException("a shared part for inbox " + header.inboxId() + " reached inbox " + inbox.id()
          + (closed ? ", which is closed" : " (a sender of an earlier stage?)"));
    }
    MappedByteBuffer file = mappings.computeIfAbsent(notice.file(), SharedMemoryFolder::mapForReading);
    int bytes = FloatCodec.byteSize(header.floats());
    if (bytes > file.capacity()) {
      throw new IllegalStateException("the shared part " + notice.file() + " holds " + file.capacity()
          + " bytes, not the " + bytes + " its notice announces");
    }
    inbox.fillWhole(header.sender(), header.id(), header.floats(), file.slice(0, bytes));
  }

  /** Stops reading and unmaps every file now (their pages are freed once the senders delete them). */
  synchronized void close() {
    closed = true;
    mappings.values().forEach(SharedMemoryFolder::unmap);
    mappings.clear();
  }
}
