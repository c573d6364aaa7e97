package io.dssync.collective;

import java.time.Duration;
import java.util.Arrays;

/**
 * The ring ({@link AllReduceAlgorithm#RING}, and {@link AllReduceAlgorithm#AUTO} for a group on
 * more than one host; g >= 3): member i still ends up owning chunk i, but every part goes only to
 * the next member round the ring. The ring passes the members in the order of their hosts
 * ({@link HostOrder}, so it crosses between racks as few times as it can), else in rank order;
 * below, "i-1" and "i+1" are positions in it, and chunk i-1 is the chunk of the member before i.
 * Reduce-scatter: first each member sends chunk i-1 as it is; then, g-2 times, it adds the partial
 * sum that came from the previous member (chunk i-2, then i-3, ...) into its own values and passes
 * it on; last, chunk i arrives with every other member's values in it, gets mine and is divided by
 * g. All-gather: each averaged chunk goes round once, copied and passed on. So each chunk is summed
 * from the member after its owner round to its owner: every member gets the same floats, equal to
 * the rank-order mean up to rounding. Received partials are announced with {@link Landing#ADD} and
 * averaged chunks with {@link Landing#COPY}, so both land in the vector as they arrive; parts
 * pipeline as in {@link DirectExchange}, in parts of about 1/8 of a chunk (the last part of a chunk is the ring's
 * tail).
 */
final class RingExchange {
  private final Transport transport;
  private final Duration timeout;
  /** Each rank's position in the ring order (host order), or null for rank order. */
  private final int[] ringPosition;

  RingExchange(Transport transport, Duration timeout, int[] ringPosition) {
    this.transport = transport;
    this.timeout = timeout;
    this.ringPosition = ringPosition;
  }

  /**
   * The ring on {@code vector[base, base+size)}, where I am at position q of the
   * ring: reduce-scatter step s receives the chunk of the member at q-s-2 and sends that of q-s-1;
   * all-gather step s receives that of q-s-1 and sends that of q-s (positions mod g). Alone, the
   * reduce-scatter leaves partial sums in the other chunks; the all-gather alone copies every chunk
   * from its owner.
   */
  void run(int[] group, int me, float[] vector, int base, int size, long step, int round, ExchangePhases phases) {
    int g = group.length;
    int partFloats = Parts.ringPartFloats(size, g);
    int[] members = ringMembers(group); // member indices in ring order
    int q = 0;
    while (members[q] != me) {
      q++;
    }
    int prev = group[members[(q + g - 1) % g]];
    int[] next = {group[members[(q + 1) % g]]};
    boolean reduce = phases.reduce >= 0;
    boolean gather = phases.gather >= 0;
    // Announced up front: each partial lands added into my own values, each averaged chunk copied.
    // Safe before my sends: a chunk's partial or average can only come after I sent it my values.
    for (int s = 0; s < g - 1; s++) {
      int received = members[Math.floorMod(q - s - 2, g)];
      int copied = members[Math.floorMod(q - s - 1, g)];
      if (reduce) {
        Parts.forEachPart(size, g, received, base, partFloats, (p, offset, length) -> transport.expect(prev,
            new MessageId(step, round, phases.reduce, received, p), vector, offset, length, Landing.ADD));
      }
      if (gather) {
        Parts.forEachPart(size, g, copied, base, partFloats, (p, offset, length) -> transport.expect(prev,
            new MessageId(step, round, phases.gather, copied, p), vector, offset, length, Landing.COPY));
      }
    }
    if (reduce) {
      int first = members[Math.floorMod(q - 1, g)];
      Parts.forEachPart(size, g, first, base, partFloats, (p, offset, length) -> transport.publish(
          new MessageId(step, round, phases.reduce, first, p), vector, offset, length, next));
      for (int s = 1; s < g; s++) {
        int c = members[Math.floorMod(q - s - 1, g)]; // arrived in step s-1; at s = g-1 it is my own chunk
        boolean mine = c == me;
        Parts.forEachPart(size, g, c, base, partFloats, (p, offset, length) -> {
          transport.fetchAdd(prev, new MessageId(step, round, phases.reduce, c, p), vector, offset, length, timeout);
          if (!mine) {
            transport.publish(new MessageId(step, round, phases.reduce, c, p), vector, offset, length, next);
            return;
          }
          FloatSums.scaleInto(vector, offset, vector, offset, length, g);
          if (gather) {
            transport.publish(new MessageId(step, round, phases.gather, me, p), vector, offset, length, next);
          }
        });
      }
    } else if (gather) {
      Parts.forEachPart(size, g, me, base, partFloats, (p, offset, length) -> transport.publish(
          new MessageId(step, round, phases.gather, me, p), vector, offset, length, next));
    }
    if (gather) {
      for (int s = 1; s < g; s++) {
        int c = members[Math.floorMod(q - s, g)]; // arrived in step s-1; the last one stops here
        boolean last = s == g - 1;
        Parts.forEachPart(size, g, c, base, partFloats, (p, offset, length) -> {
          MessageId id = new MessageId(step, round, phases.gather, c, p);
          transport.fetch(prev, id, vector, offset, length, timeout);
          if (!last) {
            transport.publish(id, vector, offset, length, next);
          }
        });
      }
    }
  }

  /** The member indices of {@code group} in ring order. */
  private int[] ringMembers(int[] group) {
    Integer[] members = new Integer[group.length];
    for (int m = 0; m < group.length; m++) {
      members[m] = m;
    }
    if (ringPosition != null) {
      Arrays.sort(members, (a, b) -> Integer.compare(ringPosition[group[a]], ringPosition[group[b]]));
    }
    return Arrays.stream(members).mapToInt(Integer::intValue).toArray();
  }
}
