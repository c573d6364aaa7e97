package io.dssync.collective;

import io.dssync.errors.TrainingErrors;
import java.time.Duration;

/**
 * Halves ({@link CrossRackPrecision#FP16}: a group whose members sit in more than one rack, or the
 * level across racks of {@link GroupAllReduce#averageInRacks}): the direct algorithm, with each value
 * sent as its change since a reference all members hold ({@link HalfFloats}), and each owner's mean of
 * the changes rounded to halves before everyone adds it to the reference, so the members still end with
 * the same floats.
 *
 * <p>Keeps its scratch buffers between calls: one instance per worker, from one thread.
 */
final class HalvesExchange {
  private final Transport transport;
  private final Duration timeout;
  private float[] sum = new float[0];
  /** Halves packed two per float, as they go out or came in. */
  private float[] wire = new float[0];

  HalvesExchange(Transport transport, Duration timeout) {
    this.transport = transport;
    this.timeout = timeout;
  }

  /**
   * The direct algorithm on {@code vector[base, base+size)} with each value sent as its change since
   * {@code reference} in IEEE halves ({@link HalfFloats}, two per float on the wire): the owner of
   * chunk i sums its own changes (exact) and the others' (as halves) in ascending member order,
   * divides by g, rounds that mean to halves and sends them; every member, the owner too, sets the
   * chunk to the reference plus those halves, so all end with the same floats. Parts as in
   * {@link #direct}, counted in packed floats.
   */
  void run(int[] group, int me, float[] vector, int base, int size, long step, int round,
      float[] reference) {
    int g = group.length;
    for (int d = 1; d < g; d++) {
      int j = (me + d) % g;
      int length = Chunking.length(size, g, j);
      int offset = base + Chunking.offset(size, g, j);
      packHalves(vector, reference, offset, length, step, offset);
      publishParts(new int[] {group[j]}, HalfFloats.packedLength(length), step, round, ExchangePhases.FLAT.reduce, j);
    }
    int myOffset = base + Chunking.offset(size, g, me);
    int myLength = Chunking.length(size, g, me);
    if (myLength > 0) {
      if (sum.length < myLength) {
        sum = new float[myLength];
      }
      for (int k = 0; k < g; k++) {
        if (k == me) {
          for (int x = 0; x < myLength; x++) {
            float change = vector[myOffset + x] - reference[myOffset + x];
            sum[x] = k == 0 ? change : sum[x] + change;
          }
        } else {
          fetchParts(group[k], HalfFloats.packedLength(myLength), step, round, ExchangePhases.FLAT.reduce, me);
          HalfFloats.unpackInto(wire, sum, myLength, k == 0);
        }
      }
      FloatSums.scaleInto(sum, 0, sum, 0, myLength, g);
      packHalves(sum, null, 0, myLength, step, myOffset);
      publishParts(Parts.othersThan(group, me), HalfFloats.packedLength(myLength), step, round,
          ExchangePhases.FLAT.gather, me);
      HalfFloats.unpackOnto(wire, reference, vector, myOffset, myLength);
    }
    for (int d = 1; d < g; d++) {
      int j = (me + d) % g;
      int length = Chunking.length(size, g, j);
      if (length > 0) {
        fetchParts(group[j], HalfFloats.packedLength(length), step, round, ExchangePhases.FLAT.gather, j);
        HalfFloats.unpackOnto(wire, reference, vector, base + Chunking.offset(size, g, j), length);
      }
    }
  }

  /**
   * Packs {@code values[offset, offset+length)} less {@code minus} (null: nothing) into
   * {@link #wire}; {@code values[offset]} is parameter {@code firstIndex} (for the error).
   */
  private void packHalves(float[] values, float[] minus, int offset, int length, long step, int firstIndex) {
    int bad = HalfFloats.pack(values, minus, offset, length, wire(HalfFloats.packedLength(length)));
    if (bad >= 0) {
      throw TrainingErrors.halfOverflow(step, firstIndex + bad - offset,
          minus == null ? values[bad] : values[bad] - minus[bad]);
    }
  }

  /** {@link #wire}, grown to hold at least {@code packed} floats. */
  private float[] wire(int packed) {
    if (wire.length < packed) {
      wire = new float[packed];
    }
    return wire;
  }

  /** Publishes {@code wire[0, packed)} in parts as chunk {@code chunk} of {@code phase} for {@code readers}. */
  private void publishParts(int[] readers, int packed, long step, int round, int phase, int chunk) {
    for (int p = 0; p < Parts.parts(packed); p++) {
      transport.publish(new MessageId(step, round, phase, chunk, p), wire, p * Parts.PART_FLOATS,
          Parts.partLength(packed, p), readers);
    }
  }

  /**
   * Fetches {@code sender}'s chunk {@code chunk} of {@code phase}, {@code packed} floats in parts, into {@link #wire}.
   */
  private void fetchParts(int sender, int packed, long step, int round, int phase, int chunk) {
    float[] into = wire(packed);
    for (int p = 0; p < Parts.parts(packed); p++) {
      transport.fetch(sender, new MessageId(step, round, phase, chunk, p), into, p * Parts.PART_FLOATS,
          Parts.partLength(packed, p), timeout);
    }
  }
}
