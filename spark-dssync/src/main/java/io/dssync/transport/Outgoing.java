package io.dssync.transport;

import io.dssync.collective.MessageId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.spark.TaskContext;
import org.apache.spark.network.client.RpcResponseCallback;

/**
 * Sender side of one task: the encoded parts on their way to remote readers and the readers'
 * acknowledgements. A part is encoded once into a pooled direct buffer (no further copy on the
 * way to the socket) and sent to all its remote readers, or, for readers on the same host, once
 * into a pooled shared-memory buffer they read in place; the buffer returns to the pool when every
 * one of them acknowledged, which means Netty is done with it. Acknowledgements arrive on a
 * network thread; the monitor ({@code this}) guards all state.
 */
final class Outgoing {
  /** A part sent to one reader and not acknowledged yet. */
  record Unacknowledged(int reader, MessageId id) {}

  /** Why the sender cannot go on: a reader refused or lost a part. */
  record Failure(int reader, MessageId id, Throwable cause) {}

  private final SizedPool<ByteBuffer> free = new SizedPool<>(ByteBuffer::allocateDirect);
  /** Buffers in shared memory for same-host readers, by size; empty without a folder. */
  private final SizedPool<SharedMemoryFolder.MappedPart> freeShared = new SizedPool<>(size -> null);
  private final Set<Unacknowledged> unacknowledged = new LinkedHashSet<>();
  private Failure failure;

  /** A direct buffer holding {@code data[offset, offset+length)}, shared by {@code readers} sends. */
  synchronized Encoded encode(float[] data, int offset, int length, int readers) {
    int bytes = FloatCodec.byteSize(length);
    ByteBuffer buffer = free.take(bytes);
    FloatCodec.encode(data, offset, length, buffer);
    return new Encoded(buffer, null, readers);
  }

  /**
   * A shared-memory buffer of {@code folder} holding {@code data[offset, offset+length)}, shared by
   * {@code readers} notices. Throws when the folder cannot grow (a full /dev/shm).
   */
  synchronized Encoded encodeShared(SharedMemoryFolder folder, float[] data, int offset, int length, int readers)
      throws IOException {
    int bytes = FloatCodec.byteSize(length);
    SharedMemoryFolder.MappedPart part = freeShared.take(bytes);
    if (part == null) {
      part = folder.allocate(bytes);
    }
    FloatCodec.encode(data, offset, length, part.buffer());
    return new Encoded(part.buffer(), part, readers);
  }

  /** The callback for one send of {@code part} to {@code reader} (null: an inline part, nothing to recycle). */
  synchronized RpcResponseCallback sent(Encoded part, int reader, MessageId id) {
    Unacknowledged entry = new Unacknowledged(reader, id);
    unacknowledged.add(entry);
    return new RpcResponseCallback() {
      @Override
      public void onSuccess(ByteBuffer response) {
        acknowledged(entry, part, null);
      }

      @Override
      public void onFailure(Throwable cause) {
        acknowledged(entry, part, cause);
      }
    };
  }

  /** The part sent longest ago that its reader has not acknowledged yet, or null. */
  synchronized Unacknowledged oldestUnacknowledged() {
    return unacknowledged.isEmpty() ? null : unacknowledged.iterator().next();
  }

  /** The first failure a reader reported, or null. */
  synchronized Failure failure() {
    return failure;
  }

  /**
   * Waits until every part was acknowledged or a send failed; returns null when all were, else the
   * failure or (at the deadline) the oldest part still unacknowledged as a failure without cause.
   */
  synchronized Failure awaitAcknowledged(long deadlineNanos, TaskContext task) {
    boolean done = TaskWaits.awaitOn(this, () -> unacknowledged.isEmpty() || failure != null, deadlineNanos, task);
    if (failure != null) {
      return failure;
    }
    if (done) {
      return null;
    }
    Unacknowledged oldest = oldestUnacknowledged();
    return new Failure(oldest.reader(), oldest.id(), null);
  }

  private synchronized void acknowledged(Unacknowledged entry, Encoded part, Throwable cause) {
    unacknowledged.remove(entry);
    if (cause != null) {
      if (failure == null) {
        failure = new Failure(entry.reader(), entry.id(), cause);
      }
      if (part != null) {
        part.poisoned = true; // Netty may still hold it: never hand it out again
      }
    }
    if (part != null && --part.sendsLeft == 0 && !part.poisoned) {
      if (part.shared != null) {
        freeShared.give(part.buffer.capacity(), part.shared);
      } else {
        free.give(part.buffer.capacity(), part.buffer);
      }
    }
    notifyAll();
  }

  /** An encoded part and how many of its sends are not acknowledged yet (guarded by the Outgoing). */
  static final class Encoded {
    final ByteBuffer buffer;
    /** The shared-memory file the buffer maps, or null for a direct buffer streamed over the network. */
    final SharedMemoryFolder.MappedPart shared;
    int sendsLeft;
    boolean poisoned;

    Encoded(ByteBuffer buffer, SharedMemoryFolder.MappedPart shared, int sends) {
      this.buffer = buffer;
      this.shared = shared;
      this.sendsLeft = sends;
    }
  }
}
