package io.dssync.collective;

import java.time.Duration;

/**
 * The direct two-phase algorithm: two serial exchanges whatever the group size g. The member at
 * index i of the (sorted) group owns chunk i of the vector ({@link Chunking}). Chunks travel in
 * parts of at most {@link Parts#PART_FLOATS} floats, so the phases pipeline: the owner sums part p
 * while part p+1 is still on the wire, and sends the averaged part p on before summing p+1.
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
 * <p>For g = 2 the reduce-scatter lands the partner's part straight as the mean of the two
 * ({@link Landing#MEAN_OF_TWO}, the same floats), and for every g the all-gather parts are
 * announced to the transport ({@link Transport#expect}) so they can land in the vector as they
 * arrive.
 *
 * <p>Keeps its scratch buffer between calls: one instance per worker, from one thread.
 */
final class DirectExchange {
  private final Transport transport;
  private final Duration timeout;
  private float[] sum = new float[0];

  DirectExchange(Transport transport, Duration timeout) {
    this.transport = transport;
    this.timeout = timeout;
  }

  /** The direct two-phase algorithm, pipelined part by part. */
  void run(int[] group, int me, float[] vector, int base, int size, long step, int round,
      ExchangePhases phases) {
    int g = group.length;
    int myOffset = base + Chunking.offset(size, g, me);
    int myLength = Chunking.length(size, g, me);
    boolean reduce = phases.reduce >= 0;
    boolean gather = phases.gather >= 0;
    if (reduce) {
      if (g == 2) {
        // Phase 0 in, announced: my partner's parts of my chunk can be averaged into it as they arrive.
        for (int p = 0; p < Parts.parts(myLength); p++) {
          transport.expect(group[1 - me], new MessageId(step, round, phases.reduce, me, p), vector,
              myOffset + p * Parts.PART_FLOATS, Parts.partLength(myLength, p), Landing.MEAN_OF_TWO);
        }
      }
      // Phase 0 out: part p of every chunk before part p+1 of any, so every owner can start early;
      // chunk 0 is the longest, so it has the most parts.
      int maxParts = Parts.parts(Chunking.length(size, g, 0));
      for (int p = 0; p < maxParts; p++) {
        for (int d = 1; d < g; d++) {
          int j = (me + d) % g; // rotate, so the members do not all send to the same owner first
          int length = Parts.partLength(Chunking.length(size, g, j), p);
          if (length > 0) {
            transport.publish(new MessageId(step, round, phases.reduce, j, p), vector,
                base + Chunking.offset(size, g, j) + p * Parts.PART_FLOATS, length, new int[] {group[j]});
          }
        }
      }
    }
    if (gather) {
      // Phase 1 in, announced: the other chunks are sent (publish copied them), so their averaged
      // parts may now land in the vector as they arrive.
      Parts.forEachOtherPart(group, me, base, size, (j, p, offset, length) -> transport.expect(group[j],
          new MessageId(step, round, phases.gather, j, p), vector, offset, length, Landing.COPY));
    }
    // Phase 0 in, phase 1 out, part by part.
    int[] others = Parts.othersThan(group, me);
    for (int p = 0; p < Parts.parts(myLength); p++) {
      int offset = myOffset + p * Parts.PART_FLOATS;
      int length = Parts.partLength(myLength, p);
      if (reduce) {
        MessageId id = new MessageId(step, round, phases.reduce, me, p);
        if (g == 2) {
          transport.fetchMean(group[1 - me], id, vector, offset, length, timeout);
        } else {
          reducePart(group, me, vector, offset, length, id);
        }
      }
      if (gather) {
        transport.publish(new MessageId(step, round, phases.gather, me, p), vector, offset, length, others);
      }
    }
    if (gather) {
      // Phase 1 in.
      Parts.forEachOtherPart(group, me, base, size, (j, p, offset, length) -> transport.fetch(group[j],
          new MessageId(step, round, phases.gather, j, p), vector, offset, length, timeout));
    }
  }

  /**
   * Sums one part of my chunk over the group in ascending member order, straight from the
   * received buffers, divides by g and writes it back into {@code vector}.
   */
  private void reducePart(int[] group, int me, float[] vector, int offset, int length, MessageId id) {
    if (sum.length < length) {
      sum = new float[length];
    }
    int g = group.length;
    for (int k = 0; k < g; k++) {
      if (k == me) {
        if (k == 0) {
          System.arraycopy(vector, offset, sum, 0, length);
        } else {
          FloatSums.addInto(vector, offset, sum, 0, length);
        }
      } else if (k == 0) {
        transport.fetch(group[k], id, sum, 0, length, timeout);
      } else {
        transport.fetchAdd(group[k], id, sum, 0, length, timeout);
      }
    }
    FloatSums.scaleInto(sum, vector, offset, length, g);
  }
}
