package io.dssync.collective;

import java.util.concurrent.atomic.AtomicLong;

/** Cumulative counters a transport keeps; callers read deltas around a step. */
public final class TransportStats {
  /** Time spent waiting for a peer's chunk to be ready. */
  public final AtomicLong waitNanos = new AtomicLong();
  /** Time spent moving bytes once a chunk was ready. */
  public final AtomicLong transferNanos = new AtomicLong();
  public final AtomicLong bytesSent = new AtomicLong();
  public final AtomicLong bytesReceived = new AtomicLong();

  public Snapshot snapshot() {
    return new Snapshot(waitNanos.get(), transferNanos.get(), bytesSent.get(), bytesReceived.get());
  }

  public record Snapshot(long waitNanos, long transferNanos, long bytesSent, long bytesReceived) {
    public Snapshot minus(Snapshot earlier) {
      return new Snapshot(
          waitNanos - earlier.waitNanos,
          transferNanos - earlier.transferNanos,
          bytesSent - earlier.bytesSent,
          bytesReceived - earlier.bytesReceived);
    }
  }
}
