package io.dssync.collective;

import io.dssync.errors.ClusterErrors;
import java.time.Duration;

/**
 * Moves float chunks between the ranks of one barrier stage. A sender publishes a chunk once for
 * a known set of readers; each reader takes it. Implementations: an in-memory transport (tests)
 * and the push transport (Spark executors: same-JVM readers by memory copy, others over Spark's
 * network library).
 *
 * <p>Contract: {@code publish} does not block on readers and copies what it needs from
 * {@code data} before returning (the caller may reuse the array). {@code fetch} and
 * {@code fetchAdd} block until the chunk has arrived or the timeout passes, then throw
 * {@code ClusterErrors.peerTimeout} naming the sender. A chunk is released once every reader took it.
 */
public interface Transport extends AutoCloseable {
  /** This worker's rank in 0..N-1. */
  int rank();

  /** Publish {@code data[offset, offset+length)} under {@code id} for ranks {@code readers}. */
  void publish(MessageId id, float[] data, int offset, int length, int[] readers);

  /**
   * Waits for the chunk {@code id} published by {@code sender} and lands it in
   * {@code dst[offset, offset+length)} as {@code landing} says (copied, added element by element in
   * FP32, or averaged with what is there), straight from the received buffer.
   */
  void fetch(int sender, MessageId id, float[] dst, int offset, int length, Landing landing, Duration timeout);

  /** Fetch the chunk {@code id} published by {@code sender} into {@code dst[offset, offset+length)}. */
  default void fetch(int sender, MessageId id, float[] dst, int offset, int length, Duration timeout) {
    fetch(sender, id, dst, offset, length, Landing.COPY, timeout);
  }

  /** Like {@link #fetch}, but adds the chunk into {@code dst}: {@code dst[offset+i] += chunk[i]} (FP32). */
  default void fetchAdd(int sender, MessageId id, float[] dst, int offset, int length, Duration timeout) {
    fetch(sender, id, dst, offset, length, Landing.ADD, timeout);
  }

  /** Like {@link #fetch}, but lands the chunk as the mean of two ({@link Landing#MEAN_OF_TWO}). */
  default void fetchMean(int sender, MessageId id, float[] dst, int offset, int length, Duration timeout) {
    fetch(sender, id, dst, offset, length, Landing.MEAN_OF_TWO, timeout);
  }

  /**
   * Announces that a fetch of this chunk into {@code dst[offset, offset+length)} with
   * {@code landing} will follow, so the chunk may land there directly as it arrives instead of in
   * a buffer first. The caller must not touch that range until the fetch returns. A hint: a
   * transport may ignore it, and a chunk that arrived earlier still comes from its buffer.
   */
  default void expect(int sender, MessageId id, float[] dst, int offset, int length, Landing landing) {}

  /** Counters of what this transport has done so far (wait, transfer, bytes). */
  TransportStats stats();

  @Override
  void close();
}
