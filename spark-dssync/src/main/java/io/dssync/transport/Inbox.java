package io.dssync.transport;

import io.dssync.collective.Landing;
import io.dssync.collective.MessageId;
import java.nio.ByteBuffer;
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
 * <p>A part the reader announced ({@link #expect}) before its first byte came lands straight in the
 * reader's array; any other part lands in a buffer pooled by length ({@link SizedPool}).
 */
final class Inbox {
  /** One part on its way in. */
  static final class Parcel {
    /** Where the floats land: a buffer of this inbox's pool, or (expected parts) the reader's own array. */
    float[] floats;
    /** Where in {@code floats} the part starts. */
    int offset;
    /** Whether {@code floats} is a pooled buffer (the reader copies out of it) rather than its own array. */
    boolean pooled;
    /** How the floats land in {@code floats}: COPY for a pooled buffer. */
    Landing landing;
    int length;
    boolean filling;
    /** Volatile as well as guarded: the reader polls them without the monitor ({@link #take}). */
    volatile boolean done;
    volatile Throwable failure;
    long startedNanos;
    long doneNanos;
  }

  private record Key(int sender, MessageId id) {}

  private final String id;
  private final int rank;
  private final Map<Key, Parcel> parcels = new HashMap<>();
  private final SizedPool<float[]> free = new SizedPool<>(float[]::new);
  private boolean closed;
  /** What the task is blocked on, for peers that ask ({@link PeerWait}); written by the task thread only. */
  private volatile PeerWait wait = PeerWait.IDLE;
  /** Whether {@link #wait} was ever a give-up (written by the task thread only). */
  private volatile boolean gaveUpOnce;

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
    if (p.floats == null || p.length != length) {
      // Not announced (or announced with another length, which take() reports): buffer it.
      p.floats = free.take(length);
      p.offset = 0;
      p.pooled = true;
      p.landing = Landing.COPY;
      p.length = length;
    }
    p.startedNanos = System.nanoTime();
    return p;
  }

  /**
   * The reader will take this part into {@code dst[offset, offset+length)} with {@code landing}: if
   * it has not started arriving, it will land there directly. Ignored for a part already arriving.
   */
  synchronized void expect(int sender, MessageId message, float[] dst, int offset, int length, Landing landing) {
    if (closed) {
      return;
    }
    Parcel p = parcels.computeIfAbsent(new Key(sender, message), k -> new Parcel());
    if (!p.filling) {
      p.floats = dst;
      p.offset = offset;
      p.pooled = false;
      p.landing = landing;
      p.length = length;
    }
  }

  /** Refuses a part addressed to another inbox (a sender of an earlier stage reaching a reused port). */
  void checkAddressedTo(PartHeader header) {
    checkAddressedTo(header.inboxId());
  }

  /** Refuses a message addressed to another inbox. */
  void checkAddressedTo(String inboxId) {
    if (!inboxId.equals(id)) {
      throw new IllegalStateException("a message for inbox " + inboxId + " reached inbox " + id
          + " (a sender of an earlier stage?)");
    }
  }

  /**
   * Lands a part that is here whole (inline, or in shared memory) from {@code bytes}: starts it,
   * decodes it into its place and finishes it, or fails it and throws.
   */
  void fillWhole(int sender, MessageId message, int floats, ByteBuffer bytes) {
    Parcel parcel = startFilling(sender, message, floats);
    try {
      FloatCodec.Decoder decoder = new FloatCodec.Decoder(parcel.floats, parcel.offset, floats, parcel.landing);
      decoder.accept(bytes);
      if (!decoder.complete()) {
        throw new IllegalStateException(message.describe() + " from rank " + sender + " brought "
            + decoder.filled() + " of the " + floats + " floats it announced");
      }
    } catch (RuntimeException e) {
      fail(parcel, e);
      throw e;
    }
    finish(parcel);
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
  Parcel take(int sender, MessageId message, long deadlineNanos, TaskContext task) {
    return take(sender, message, deadlineNanos, task, null);
  }

  /**
   * The task thread's own wait for a part whose notice it reads itself ({@link HostSignals}): blocks
   * up to the given nanoseconds for the sender's socket and lands what arrived.
   */
  interface Pump {
    void pump(long maxWaitNanos);
  }

  /**
   * Like {@link #take(int, MessageId, long, TaskContext)}; with a {@code pump}, this thread lands the
   * part itself, waiting in the pump (outside the monitor, so network threads can land other parts)
   * rather than on the monitor.
   */
  Parcel take(int sender, MessageId message, long deadlineNanos, TaskContext task, Pump pump) {
    long start = System.nanoTime();
    Key key = new Key(sender, message);
    Parcel p;
    synchronized (this) {
      p = parcels.computeIfAbsent(key, k -> new Parcel());
    }
    if (pump != null) {
      pump.pump(0);
      if (!(p.done || p.failure != null)) {
        wait = PeerWait.waiting(sender, message, start);
        // A sender whose socket closed has ended its task, and failed if it still owed this part: the
        // stage fails with its error, and Spark kills this task. Until then, or the deadline, keep waiting.
        TaskWaits.pumpUntil(pump, () -> p.done || p.failure != null || closed, deadlineNanos, task);
      }
    } else if (!TaskWaits.spinBriefly(() -> p.done || p.failure != null, TaskWaits.SPIN_NANOS)) {
      wait = PeerWait.waiting(sender, message, start); // only once it parks: a spin is too short for anyone to ask
    }
    synchronized (this) {
      if (!TaskWaits.awaitOn(this, () -> p.done || p.failure != null || closed, deadlineNanos, task)) {
        if (!p.filling) {
          parcels.remove(key); // a late part must not land in the reader's array after it gave up
        }
        wait = wait.gaveUp(); // set above: a part that arrives within the spin never gets here
        gaveUpOnce = true;
        return null;
      }
      wait = PeerWait.IDLE;
      if (closed) {
        throw new IllegalStateException("rank " + rank + " stopped receiving while waiting for " + message.describe());
      }
      parcels.remove(key);
      return p;
    }
  }

  /**
   * The task waits, at the end of its stage, for rank {@code reader} to acknowledge part {@code id}
   * since {@code sinceNanos}; {@code gaveUp}: it stopped waiting.
   */
  void awaitingAcknowledgement(int reader, MessageId id, long sinceNanos, boolean gaveUp) {
    PeerWait acknowledging = PeerWait.acknowledging(reader, id, sinceNanos);
    wait = gaveUp ? acknowledging.gaveUp() : acknowledging;
    gaveUpOnce |= gaveUp;
  }

  /** The task's wait ended the way it hoped. */
  void notWaiting() {
    wait = PeerWait.IDLE;
  }

  /** Whether the task gave up on a part or an acknowledgement since this inbox opened. */
  boolean gaveUpOnce() {
    return gaveUpOnce;
  }

  /** What the task is waiting for now, or gave up on last (it stays after {@link #close}). */
  PeerWait peerWait() {
    return wait;
  }

  /** Hands a pooled parcel's buffer back (the reader has read it). */
  synchronized void recycle(Parcel p) {
    if (p.pooled) {
      free.give(p.floats.length, p.floats);
    }
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
