package io.dssync.transport;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Receiver side of the shared-memory path: lands a part from the sender's file, mapped once per file
 * and kept for the stage (a sender reuses its buffers every step). Runs on the reader's task thread
 * ({@link HostSignals}), after the stage's addresses are known; the monitor keeps {@link #close}
 * from unmapping a file while a part is being read from it. A notice may name only a file in its
 * sender's folder, as the sender announced it at stage start.
 */
final class SharedPartReader {
  private final Inbox inbox;
  private final Map<String, MappedByteBuffer> mappings = new HashMap<>();
  /** Each rank's shared-memory folder, once the stage's addresses are known; null until then. */
  private String[] folders;
  private boolean closed;

  SharedPartReader(Inbox inbox) {
    this.inbox = inbox;
  }

  /** The folders the ranks announced: a notice may only name a file in its sender's folder. */
  synchronized void knowFolders(String[] folders) {
    this.folders = folders.clone();
  }

  synchronized void land(SharedPartNotice notice) {
    PartHeader header = notice.header();
    inbox.checkAddressedTo(header);
    if (closed) {
      throw new IllegalStateException("a shared part reached inbox " + inbox.id() + ", which is closed");
    }
    // Never map a file a notice names outside its sender's folder, whoever could send notices.
    Path named = Path.of(notice.file()).normalize();
    if (folders == null || header.sender() >= folders.length || named.getParent() == null
        || !named.getParent().toString().equals(folders[header.sender()])) {
      throw new IllegalStateException("a shared part from rank " + header.sender() + " names " + notice.file()
          + ", which is not in that rank's shared-memory folder");
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
