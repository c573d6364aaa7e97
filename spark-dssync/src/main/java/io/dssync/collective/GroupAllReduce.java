package io.dssync.collective;

import io.dssync.errors.Errors;
import java.time.Duration;
import java.util.Arrays;

/**
 * Averages a float vector over the members of one group, in place, over a {@link Transport}.
 *
 * <p>Direct two-phase algorithm: two serial exchanges whatever the group size g. The member at
 * index i of the (sorted) group owns chunk i of the vector ({@link Chunking}).
 *
 * <ol>
 *   <li>Reduce-scatter (phase 0): send chunk j to member j for every j != i; receive chunk i from
 *       every other member and sum in FP32 in ascending member order (my own chunk at my
 *       position), then divide by g. The result is bit-identical to a plain float sum in rank
 *       order divided by g, so every member ends with exactly the same numbers.
 *   <li>All-gather (phase 1): send my averaged chunk i to every other member; receive every other
 *       member's averaged chunk into the vector.
 * </ol>
 *
 * <p>Empty chunks (vector shorter than g) are neither sent nor fetched: both sides know the
 * lengths. A group of one returns at once without touching the transport.
 *
 * <p>Errors: {@code Errors.notInGroup} when this rank is not in the group; the transport's
 * {@code Errors.peerTimeout} (naming the missing rank) when a member does not deliver within the
 * timeout, which bounds each single wait for one peer's chunk; {@code Errors.lengthMismatch} when
 * members pass vectors of different lengths (where the transport can see it).
 *
 * <p>Keeps its scratch buffers between calls: use one instance per worker, from one thread.
 */
public final class GroupAllReduce {
  private static final int REDUCE_SCATTER = 0;
  private static final int ALL_GATHER = 1;

  private final Transport transport;
  private final Duration timeout;
  private float[] sum = new float[0];
  private float[] received = new float[0];

  public GroupAllReduce(Transport transport, Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw Errors.invalidSetting(
          "sync timeout", timeout, "the all-reduce timeout must be positive",
          "Set dssync.syncTimeoutMs to a positive number of milliseconds.");
    }
    this.transport = transport;
    this.timeout = timeout;
  }

  /**
   * Replaces {@code vector} with the element-wise mean of the vectors of all members of
   * {@code group} (sorted ranks containing this transport's rank). Every member must call this
   * with the same group, step, round and vector length.
   */
  public void average(int[] group, float[] vector, long step, int round) {
    int me = indexOfSelf(group);
    int g = group.length;
    if (g == 1) {
      return;
    }
    int size = vector.length;
    for (int j = 0; j < g; j++) {
      int length = Chunking.length(size, g, j);
      if (j != me && length > 0) {
        transport.publish(
            new MessageId(step, round, REDUCE_SCATTER, j), vector, Chunking.offset(size, g, j),
            length, new int[] {group[j]});
      }
    }
    int myOffset = Chunking.offset(size, g, me);
    int myLength = Chunking.length(size, g, me);
    if (myLength > 0) {
      reduceOwnChunk(group, me, vector, myOffset, myLength, new MessageId(step, round, REDUCE_SCATTER, me));
      transport.publish(
          new MessageId(step, round, ALL_GATHER, me), vector, myOffset, myLength, othersThan(group, me));
    }
    for (int j = 0; j < g; j++) {
      int length = Chunking.length(size, g, j);
      if (j != me && length > 0) {
        transport.fetch(
            group[j], new MessageId(step, round, ALL_GATHER, j), vector, Chunking.offset(size, g, j),
            length, timeout);
      }
    }
  }

  /** Sums chunk {@code me} over the group in ascending member order, divides by g, writes it back. */
  private void reduceOwnChunk(int[] group, int me, float[] vector, int offset, int length, MessageId id) {
    if (sum.length < length) {
      sum = new float[length];
      received = new float[length];
    }
    int g = group.length;
    for (int k = 0; k < g; k++) {
      float[] part;
      int partOffset;
      if (k == me) {
        part = vector;
        partOffset = offset;
      } else {
        transport.fetch(group[k], id, received, 0, length, timeout);
        part = received;
        partOffset = 0;
      }
      if (k == 0) {
        System.arraycopy(part, partOffset, sum, 0, length);
      } else {
        for (int x = 0; x < length; x++) {
          sum[x] += part[partOffset + x];
        }
      }
    }
    for (int x = 0; x < length; x++) {
      vector[offset + x] = sum[x] / g;
    }
  }

  private int indexOfSelf(int[] group) {
    int rank = transport.rank();
    if (group == null || group.length == 0) {
      throw Errors.notInGroup(rank, group == null ? new int[0] : group);
    }
    int index = -1;
    for (int k = 0; k < group.length; k++) {
      if (k > 0 && group[k] <= group[k - 1]) {
        throw Errors.invalidSetting(
            "group", Arrays.toString(group), "a group lists distinct ranks in ascending order",
            "Pass a group returned by GroupSchedule.groupsAt or groupOf.");
      }
      if (group[k] == rank) {
        index = k;
      }
    }
    if (index < 0) {
      throw Errors.notInGroup(rank, group);
    }
    return index;
  }

  private static int[] othersThan(int[] group, int me) {
    int[] others = new int[group.length - 1];
    for (int k = 0, o = 0; k < group.length; k++) {
      if (k != me) {
        others[o++] = group[k];
      }
    }
    return others;
  }
}
