package io.dssync.transport;

import io.dssync.collective.MessageId;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.TaskContext;

/**
 * Receiver side of one task: the parts pushed to it, by (sender, message), from the moment their
 * first byte arrives until the task takes them. Filled by network threads (remote senders) or by
 * the task threads of same-JVM senders; emptied by this task's thread. The monitor ({@code this})
 * guards the map, the buffer pool and every parcel's state; a parcel's floats are written outside
 * it by its one filler, and read by the task only after {@link #finish} (which takes the monitor).
 *
 * <p>Buffers are pooled by length ({@link SizedPool}).
 */
final class Inbox {
  /** One part on its way in. */
  static final class Parcel {
    float[] floats;
    int length;
    boolean filling;
    boolean done;
    Throwable failure;
    long startedNanos;
    long doneNanos;
  }

  private record Key(int sender, MessageId id) {}

  private final String id;
  private final int rank;
  private final Map<Key, Parcel> parcels = new HashMap<>();
  private final SizedPool<float[]> free = new SizedPool<>(float[]::new);
  private boolean closed;

  Inbox(String id, int rank) {
    this.id = id;
    this.rank = rank;
  }

  String id() {
    return id;
  }

  /** Starts receiving part {@code message} from {@code sender}: the buffer to fill with {@code length} floats. */
  synchronized Parcel startFilling(int sender, MessageId message, int length) {
    if (closed) {
      throw new IllegalStateException("rank " + rank + " is no longer receiving (its transport is closed)");
    }
    Parcel p = parcels.computeIfAbsent(new Key(sender, message), k -> new Parcel());
    if (p.filling) {
      throw new IllegalStateException("rank " + sender + " sent " + message.describe() + " to rank " + rank
          + " twice; message ids must be unique");
    }
    p.filling = true;
    p.length = length;
    p.floats = free.take(length);
    p.startedNanos = System.nanoTime();
    return p;
  }

  synchronized void finish(Parcel p) {
    p.done = true;
    p.doneNanos = System.nanoTime();
    notifyAll();
  }

  synchronized void fail(Parcel p, Throwable cause) {
    p.failure = cause;
    notifyAll();
  }

  /**
   * Waits until the part has arrived whole (or failed) and takes it out of the inbox; null at the
   * deadline. The caller hands the parcel back with {@link #recycle} once it has read it.
   */
  synchronized Parcel take(int sender, MessageId message, long deadlineNanos, TaskContext task) {
    Key key = new Key(sender, message);
    Parcel p = parcels.computeIfAbsent(key, k -> new Parcel());
    if (!TaskWaits.awaitOn(this, () -> p.done || p.failure != null || closed, deadlineNanos, task)) {
      return null;
    }
    if (closed) {
      throw new IllegalStateException("rank " + rank + " stopped receiving while waiting for " + message.describe());
    }
    parcels.remove(key);
    return p;
  }

  synchronized void recycle(Parcel p) {
    free.give(p.floats.length, p.floats);
    p.floats = null;
  }

  /** Parts that arrived (or are arriving) and were not taken yet. */
  synchronized int pending() {
    return parcels.size();
  }

  /** Stops receiving: later parts are refused and the buffers go to the GC. */
  synchronized void close() {
    closed = true;
    parcels.clear();
    free.clear();
    notifyAll();
  }
}
