package io.dssync.collective;

import java.time.Duration;

/**
 * Moves float chunks between the ranks of one barrier stage. A sender publishes a chunk once for
 * a known set of readers; each reader fetches it from the sender. Implementations: an in-memory
 * transport (tests) and the BlockManager transport (Spark executors).
 *
 * <p>Contract: {@code publish} does not block on readers and copies what it needs from
 * {@code data} before returning (the caller may reuse the array). {@code fetch} blocks until the
 * chunk exists or the timeout passes, then throws {@code Errors.peerTimeout} naming the sender.
 * Published chunks are released once every reader has fetched them.
 */
public interface Transport extends AutoCloseable {
  /** This worker's rank in 0..N-1. */
  int rank();

  /** Publish {@code data[offset, offset+length)} under {@code id} for ranks {@code readers}. */
  void publish(MessageId id, float[] data, int offset, int length, int[] readers);

  /** Fetch the chunk {@code id} published by {@code sender} into {@code dst[offset, offset+length)}. */
  void fetch(int sender, MessageId id, float[] dst, int offset, int length, Duration timeout);

  /** Counters of what this transport has done so far (wait, transfer, bytes). */
  TransportStats stats();

  @Override
  void close();
}
