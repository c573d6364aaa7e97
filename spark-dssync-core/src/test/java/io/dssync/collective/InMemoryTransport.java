package io.dssync.collective;

import io.dssync.errors.ClusterErrors;
import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Transport} between threads of one JVM, for tests and single-process training. The
 * transports returned by one {@link #create} call share a mailbox: a publish stores a copy of the
 * chunk, a fetch waits for it until the deadline, and a chunk is dropped once all its readers have
 * fetched it, so memory stays flat over many steps ({@link #pendingChunks()}).
 */
public final class InMemoryTransport implements Transport {
  private final int rank;
  private final Mailbox mailbox;
  private final TransportStats stats = new TransportStats();
  private volatile boolean closed;

  private InMemoryTransport(int rank, Mailbox mailbox) {
    this.rank = rank;
    this.mailbox = mailbox;
  }

  /** {@code n} linked transports; the transport at index r has rank r. */
  public static List<InMemoryTransport> create(int n) {
    if (n < 1) {
      throw Errors.invalidSetting("workers", n, "the number of workers must be at least 1", "Pass N >= 1.");
    }
    Mailbox mailbox = new Mailbox(n);
    List<InMemoryTransport> transports = new ArrayList<>(n);
    for (int r = 0; r < n; r++) {
      transports.add(new InMemoryTransport(r, mailbox));
    }
    return Collections.unmodifiableList(transports);
  }

  @Override
  public int rank() {
    return rank;
  }

  @Override
  public void publish(MessageId id, float[] data, int offset, int length, int[] readers) {
    checkOpen();
    Objects.checkFromIndexSize(offset, length, data.length);
    long start = System.nanoTime();
    float[] copy = Arrays.copyOfRange(data, offset, offset + length);
    boolean[] isReader = new boolean[mailbox.workers];
    int readerCount = 0;
    for (int reader : readers) {
      checkRank(reader, "reader");
      if (!isReader[reader]) {
        isReader[reader] = true;
        readerCount++;
      }
    }
    if (readerCount > 0) {
      int pending = readerCount;
      mailbox.slots.compute(new Key(rank, id), (key, slot) -> {
        Slot s = slot == null ? new Slot() : slot;
        if (s.isFilled()) {
          throw new IllegalStateException(
              "rank " + rank + " published " + id.describe() + " twice; message ids must be unique");
        }
        s.fill(copy, isReader, pending);
        return s;
      });
    }
    stats.transferNanos.addAndGet(System.nanoTime() - start);
    stats.bytesSent.addAndGet(Float.BYTES * (long) length);
  }

  @Override
  public void fetch(int sender, MessageId id, float[] dst, int offset, int length, Landing landing,
      Duration timeout) {
    checkOpen();
    checkRank(sender, "sender");
    Objects.checkFromIndexSize(offset, length, dst.length);
    Key key = new Key(sender, id);
    Slot slot = mailbox.slots.compute(key, (k, s) -> {
      Slot waitOn = s == null ? new Slot() : s;
      waitOn.waiters++;
      return waitOn;
    });
    long start = System.nanoTime();
    boolean arrived;
    try {
      arrived = slot.filled.await(nanos(timeout), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      leave(key, slot, false);
      throw ClusterErrors.transportFailure(rank, sender, id.step(), "fetch " + id.describe() + " from", e);
    }
    long ready = System.nanoTime();
    stats.waitNanos.addAndGet(ready - start);
    if (!arrived) {
      leave(key, slot, false);
      throw ClusterErrors.peerTimeout(rank, sender, id.step(), id.describe(), timeout.toMillis());
    }
    if (!slot.isReader[rank]) {
      leave(key, slot, false);
      throw new IllegalStateException(
          "rank " + rank + " fetched " + id.describe() + " from rank " + sender + ", which was not published for it");
    }
    if (slot.data.length != length) {
      leave(key, slot, false);
      throw DataErrors.lengthMismatch(id.describe() + " from rank " + sender, length, slot.data.length);
    }
    landing.apply(slot.data, 0, dst, offset, length);
    leave(key, slot, true);
    stats.transferNanos.addAndGet(System.nanoTime() - ready);
    stats.bytesReceived.addAndGet(Float.BYTES * (long) length);
  }

  /** Chunks published by any of the linked transports and not yet fetched by all their readers. */
  public int pendingChunks() {
    int pending = 0;
    for (Slot slot : mailbox.slots.values()) {
      if (slot.isFilled()) {
        pending++;
      }
    }
    return pending;
  }

  @Override
  public TransportStats stats() {
    return stats;
  }

  @Override
  public void close() {
    closed = true;
  }

  /** Ends one wait on {@code slot}; drops it once every reader has it, or nobody waits for an empty one. */
  private void leave(Key key, Slot slot, boolean delivered) {
    mailbox.slots.computeIfPresent(key, (k, s) -> {
      if (s != slot) {
        return s;
      }
      s.waiters--;
      if (delivered && s.isReader[rank] && !s.hasRead[rank]) {
        s.hasRead[rank] = true;
        s.pendingReaders--;
      }
      boolean done = s.isFilled() ? s.pendingReaders == 0 : s.waiters == 0;
      return done ? null : s;
    });
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the in-memory transport of rank " + rank + " is closed");
    }
  }

  private void checkRank(int r, String role) {
    if (r < 0 || r >= mailbox.workers) {
      throw new IllegalArgumentException(role + " rank " + r + " is not in 0.." + (mailbox.workers - 1));
    }
  }


  /** Duration to nanos, saturating instead of overflowing for very long timeouts. */
  private static long nanos(Duration timeout) {
    try {
      return timeout.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  private record Key(int sender, MessageId id) {}

  private static final class Mailbox {
    final int workers;
    final ConcurrentHashMap<Key, Slot> slots = new ConcurrentHashMap<>();

    Mailbox(int workers) {
      this.workers = workers;
    }
  }

  /**
   * One chunk, or the place a reader waits for it. The counters and reader flags change only
   * inside the map's per-key compute calls; data is written before the latch opens.
   */
  private static final class Slot {
    final CountDownLatch filled = new CountDownLatch(1);
    float[] data;
    boolean[] isReader;
    boolean[] hasRead;
    int pendingReaders;
    int waiters;

    void fill(float[] chunk, boolean[] readers, int readerCount) {
      data = chunk;
      isReader = readers;
      hasRead = new boolean[readers.length];
      pendingReaders = readerCount;
      filled.countDown();
    }

    boolean isFilled() {
      return filled.getCount() == 0;
    }
  }
}
