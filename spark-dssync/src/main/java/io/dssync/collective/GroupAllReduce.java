package io.dssync.collective;

import io.dssync.errors.Errors;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * Averages a float vector over the members of one group, in place, over a {@link Transport}, with
 * the direct algorithm (below; the default) or, for groups of three or more, a ring
 * ({@link AllReduceAlgorithm#RING}, at the end).
 *
 * <p>Direct two-phase algorithm: two serial exchanges whatever the group size g. The member at
 * index i of the (sorted) group owns chunk i of the vector ({@link Chunking}). Chunks travel in
 * parts of at most {@link #PART_FLOATS} floats, so the phases pipeline: the owner sums part p
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
 * <p>Ring ({@link AllReduceAlgorithm#RING}, and {@link AllReduceAlgorithm#AUTO} for a group on
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
 * pipeline as above, in parts of about 1/8 of a chunk (the last part of a chunk is the ring's
 * tail).
 *
 * <p>Halves ({@link CrossRackPrecision#FP16}: a group whose members sit in more than one rack, or the
 * level across racks of {@link #averageInRacks}): the direct algorithm, with each value sent as its change since a
 * reference all members hold ({@link HalfFloats}), and each owner's mean of the changes rounded to
 * halves before everyone adds it to the reference, so the members still end with the same floats.
 *
 * <p>Empty chunks (vector shorter than g) are neither sent nor fetched: both sides know the
 * lengths. A group of one returns at once without touching the transport.
 *
 * <p>Errors: {@code Errors.notInGroup} when this rank is not in the group; the transport's
 * {@code Errors.peerTimeout} (naming the missing rank) when a member does not deliver within the
 * timeout, which bounds each single wait for one peer's part; {@code Errors.lengthMismatch} when
 * members pass vectors of different lengths (where the transport can see it).
 *
 * <p>Keeps its scratch buffer between calls: use one instance per worker, from one thread.
 */
public final class GroupAllReduce {
  /**
   * Floats per part (4 MiB): large enough that per-message costs and thread hand-offs (a wake-up
   * per part, which costs milliseconds on a busy machine) vanish against the bytes, small enough
   * that the sum of one part overlaps the transfer of the next.
   */
  public static final int PART_FLOATS = 1 << 20;
  /**
   * The ring cuts each chunk into about this many parts: a chunk's last part is the ring's tail
   * (it must arrive whole before it moves on), so its parts are smaller than the direct
   * algorithm's, within [{@link #RING_MIN_PART_FLOATS}, {@link #PART_FLOATS}].
   */
  static final int RING_PARTS_PER_CHUNK = 8;
  /** 64 KiB: a part this small still travels whole in one message. */
  static final int RING_MIN_PART_FLOATS = 1 << 14;

  private static final int REDUCE_SCATTER = 0;
  private static final int ALL_GATHER = 1;
  /** The in-rack phases of {@link #averageInRacks}; the average across racks uses the two above. */
  private static final int RACK_REDUCE_SCATTER = 2;
  private static final int RACK_ALL_GATHER = 3;

  private final Transport transport;
  private final Duration timeout;
  private final AllReduceAlgorithm algorithm;
  /** Each rank's executor host, or null when unknown (one host). */
  private final String[] hosts;
  /** Each rank's position in the ring order (host order), or null for rank order. */
  private final int[] ringPosition;
  private float[] sum = new float[0];
  /** Halves packed two per float, as they go out or came in ({@link #directInHalves}). */
  private float[] wire = new float[0];

  /** The direct algorithm ({@link AllReduceAlgorithm#DIRECT}). */
  public GroupAllReduce(Transport transport, Duration timeout) {
    this(transport, timeout, AllReduceAlgorithm.DIRECT);
  }

  /**
   * {@code algorithm} for groups of three or more (pairs always swap directly), with the ranks'
   * hosts unknown: a ring in rank order, and {@link AllReduceAlgorithm#AUTO} direct.
   */
  public GroupAllReduce(Transport transport, Duration timeout, AllReduceAlgorithm algorithm) {
    this(transport, timeout, algorithm, null);
  }

  /**
   * Like {@link #GroupAllReduce(Transport, Duration, AllReduceAlgorithm)}, knowing the executor
   * host of every rank ({@code hosts[r]}; every rank must pass the same), which decides
   * {@link AllReduceAlgorithm#AUTO} and the ring's order.
   */
  public GroupAllReduce(Transport transport, Duration timeout, AllReduceAlgorithm algorithm, String[] hosts) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw Errors.invalidFlag(
          "syncTimeoutMs", timeout, "the all-reduce timeout must be positive",
          "Set it to a positive number of milliseconds.");
    }
    this.transport = transport;
    this.timeout = timeout;
    this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
    this.hosts = hosts == null ? null : hosts.clone();
    this.ringPosition = hosts == null ? null : new int[hosts.length];
    if (hosts != null) {
      if (Arrays.asList(hosts).contains(null)) {
        throw Errors.invalidSetting("hosts", Arrays.toString(hosts), "every rank has a host",
            "Pass the executor host of every rank (PushTransport.hosts()).");
      }
      int[] order = HostOrder.byHost(hosts);
      for (int q = 0; q < order.length; q++) {
        ringPosition[order[q]] = q;
      }
    }
  }

  /**
   * Replaces {@code vector} with the element-wise mean of the vectors of all members of
   * {@code group} (sorted ranks containing this transport's rank). Every member must call this
   * with the same group, step, round and vector length.
   */
  public void average(int[] group, float[] vector, long step, int round) {
    average(group, vector, step, round, null);
  }

  /**
   * {@link #average(int[], float[], long, int)} sending each value's change since
   * {@code halfReference} in IEEE halves ({@link CrossRackPrecision#FP16}, over the direct exchange
   * whatever the algorithm), or in FP32 when {@code halfReference} is null. Every member must pass
   * the same reference, as long as the vector.
   */
  public void average(int[] group, float[] vector, long step, int round, float[] halfReference) {
    checkReference(vector, halfReference);
    int me = indexOfSelf(group);
    if (group.length > 1 && halfReference != null) {
      directInHalves(group, me, vector, 0, vector.length, step, round, halfReference);
    } else if (group.length > 1) {
      exchange(group, me, vector, 0, vector.length, step, round, Phases.FLAT);
    }
  }

  private static void checkReference(float[] vector, float[] halfReference) {
    if (halfReference != null && halfReference.length != vector.length) {
      throw Errors.lengthMismatch("the reference of an average in halves", vector.length, halfReference.length);
    }
  }

  /**
   * Replaces {@code vector} with the element-wise mean over every rank of {@code racks} in two
   * levels, so that a slow link between racks carries the vector once per rack instead of once per
   * member: a reduce-scatter inside each rack leaves member i of every rack with its rack's mean of
   * chunk i; the i-th members of all racks average chunk i across the racks ({@link #average}'s
   * algorithm on that range); an all-gather inside each rack gives every member the whole vector.
   * Every rank ends with the same floats: the mean of the rack means, each rack mean summed in rank
   * order, the rack means of chunk i summed in the order of the racks' i-th ranks (equal to the flat
   * mean up to rounding, not bit for bit).
   *
   * @param racks disjoint racks, each sorted ascending, all of the same size; together they are the
   *     group, and this transport's rank is in one of them
   */
  public void averageInRacks(int[][] racks, float[] vector, long step, int round) {
    averageInRacks(racks, vector, step, round, null);
  }

  /**
   * {@link #averageInRacks(int[][], float[], long, int)} whose level across racks sends each value's
   * change since {@code halfReference} in IEEE halves ({@link CrossRackPrecision#FP16}, over the
   * direct exchange whatever the algorithm), or in FP32 when {@code halfReference} is null. Every
   * member must pass the same reference, as long as the vector.
   */
  public void averageInRacks(int[][] racks, float[] vector, long step, int round, float[] halfReference) {
    checkReference(vector, halfReference);
    int rank = transport.rank();
    int myRack = -1;
    for (int r = 0; r < racks.length; r++) {
      if (racks[r].length != racks[0].length) {
        throw Errors.invalidSetting("racks", Arrays.deepToString(racks),
            "a two-level average needs racks of one size", "Average such groups in one level (average).");
      }
      if (Arrays.binarySearch(racks[r], rank) >= 0) {
        myRack = r;
      }
    }
    if (myRack < 0) {
      throw Errors.notInGroup(rank, Arrays.stream(racks).flatMapToInt(Arrays::stream).sorted().toArray());
    }
    int[] rack = racks[myRack];
    int i = indexOfSelf(rack);
    int k = rack.length;
    int size = vector.length;
    int offset = Chunking.offset(size, k, i);
    int length = Chunking.length(size, k, i);
    if (k > 1) {
      exchange(rack, i, vector, 0, size, step, round, Phases.RACK_REDUCE);
    }
    int[] across = new int[racks.length];
    for (int r = 0; r < racks.length; r++) {
      across[r] = racks[r][i];
    }
    Arrays.sort(across); // the racks' order need not be their ranks' order; every member sorts alike
    if (across.length > 1 && halfReference != null) {
      directInHalves(across, Arrays.binarySearch(across, rank), vector, offset, length, step, round, halfReference);
    } else if (across.length > 1) {
      exchange(across, Arrays.binarySearch(across, rank), vector, offset, length, step, round, Phases.FLAT);
    }
    if (k > 1) {
      exchange(rack, i, vector, 0, size, step, round, Phases.RACK_GATHER);
    }
  }

  /**
   * Which of the two phases an {@link #exchange} runs, under which message phases: both (one
   * average), the reduce-scatter alone (its chunk averaged in place, the rest left as it was), or
   * the all-gather alone (every member's chunk copied from its owner).
   */
  private enum Phases {
    FLAT(REDUCE_SCATTER, ALL_GATHER),
    RACK_REDUCE(RACK_REDUCE_SCATTER, -1),
    RACK_GATHER(-1, RACK_ALL_GATHER);

    final int reduce;
    final int gather;

    Phases(int reduce, int gather) {
      this.reduce = reduce;
      this.gather = gather;
    }
  }

  /**
   * The phases {@code phases} names on {@code vector[base, base+size)} among {@code group}, where
   * this rank is member {@code me}, with this instance's algorithm.
   */
  private void exchange(int[] group, int me, float[] vector, int base, int size, long step, int round,
      Phases phases) {
    if (hosts != null && algorithm != AllReduceAlgorithm.DIRECT) {
      checkHostsCover(group); // once, for both uses of the hosts below (auto's choice, the ring's order)
    }
    boolean ring = switch (algorithm) {
      case DIRECT -> false;
      case RING -> true;
      case AUTO -> spansHosts(group);
    };
    if (ring && group.length > 2) {
      ring(group, me, vector, base, size, step, round, phases);
    } else {
      direct(group, me, vector, base, size, step, round, phases);
    }
  }

  /** The direct two-phase algorithm, pipelined part by part. */
  private void direct(int[] group, int me, float[] vector, int base, int size, long step, int round,
      Phases phases) {
    int g = group.length;
    int myOffset = base + Chunking.offset(size, g, me);
    int myLength = Chunking.length(size, g, me);
    boolean reduce = phases.reduce >= 0;
    boolean gather = phases.gather >= 0;
    if (reduce) {
      if (g == 2) {
        // Phase 0 in, announced: my partner's parts of my chunk can be averaged into it as they arrive.
        for (int p = 0; p < parts(myLength); p++) {
          transport.expect(group[1 - me], new MessageId(step, round, phases.reduce, me, p), vector,
              myOffset + p * PART_FLOATS, partLength(myLength, p), Landing.MEAN_OF_TWO);
        }
      }
      // Phase 0 out: part p of every chunk before part p+1 of any, so every owner can start early;
      // chunk 0 is the longest, so it has the most parts.
      int maxParts = parts(Chunking.length(size, g, 0));
      for (int p = 0; p < maxParts; p++) {
        for (int d = 1; d < g; d++) {
          int j = (me + d) % g; // rotate, so the members do not all send to the same owner first
          int length = partLength(Chunking.length(size, g, j), p);
          if (length > 0) {
            transport.publish(new MessageId(step, round, phases.reduce, j, p), vector,
                base + Chunking.offset(size, g, j) + p * PART_FLOATS, length, new int[] {group[j]});
          }
        }
      }
    }
    if (gather) {
      // Phase 1 in, announced: the other chunks are sent (publish copied them), so their averaged
      // parts may now land in the vector as they arrive.
      forEachOtherPart(group, me, base, size, (j, p, offset, length) -> transport.expect(group[j],
          new MessageId(step, round, phases.gather, j, p), vector, offset, length, Landing.COPY));
    }
    // Phase 0 in, phase 1 out, part by part.
    int[] others = othersThan(group, me);
    for (int p = 0; p < parts(myLength); p++) {
      int offset = myOffset + p * PART_FLOATS;
      int length = partLength(myLength, p);
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
      forEachOtherPart(group, me, base, size, (j, p, offset, length) -> transport.fetch(group[j],
          new MessageId(step, round, phases.gather, j, p), vector, offset, length, timeout));
    }
  }

  /**
   * The direct algorithm on {@code vector[base, base+size)} with each value sent as its change since
   * {@code reference} in IEEE halves ({@link HalfFloats}, two per float on the wire): the owner of
   * chunk i sums its own changes (exact) and the others' (as halves) in ascending member order,
   * divides by g, rounds that mean to halves and sends them; every member, the owner too, sets the
   * chunk to the reference plus those halves, so all end with the same floats. Parts as in
   * {@link #direct}, counted in packed floats.
   */
  private void directInHalves(int[] group, int me, float[] vector, int base, int size, long step, int round,
      float[] reference) {
    int g = group.length;
    for (int d = 1; d < g; d++) {
      int j = (me + d) % g;
      int length = Chunking.length(size, g, j);
      int offset = base + Chunking.offset(size, g, j);
      packHalves(vector, reference, offset, length, step, offset);
      publishParts(new int[] {group[j]}, HalfFloats.packedLength(length), step, round, REDUCE_SCATTER, j);
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
          fetchParts(group[k], HalfFloats.packedLength(myLength), step, round, REDUCE_SCATTER, me);
          HalfFloats.unpackInto(wire, sum, myLength, k == 0);
        }
      }
      scaleInto(sum, 0, sum, 0, myLength, g);
      packHalves(sum, null, 0, myLength, step, myOffset);
      publishParts(othersThan(group, me), HalfFloats.packedLength(myLength), step, round, ALL_GATHER, me);
      HalfFloats.unpackOnto(wire, reference, vector, myOffset, myLength);
    }
    for (int d = 1; d < g; d++) {
      int j = (me + d) % g;
      int length = Chunking.length(size, g, j);
      if (length > 0) {
        fetchParts(group[j], HalfFloats.packedLength(length), step, round, ALL_GATHER, j);
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
      throw Errors.halfOverflow(step, firstIndex + bad - offset,
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
    for (int p = 0; p < parts(packed); p++) {
      transport.publish(new MessageId(step, round, phase, chunk, p), wire, p * PART_FLOATS, partLength(packed, p),
          readers);
    }
  }

  /**
   * Fetches {@code sender}'s chunk {@code chunk} of {@code phase}, {@code packed} floats in parts, into {@link #wire}.
   */
  private void fetchParts(int sender, int packed, long step, int round, int phase, int chunk) {
    float[] into = wire(packed);
    for (int p = 0; p < parts(packed); p++) {
      transport.fetch(sender, new MessageId(step, round, phase, chunk, p), into, p * PART_FLOATS,
          partLength(packed, p), timeout);
    }
  }

  /**
   * The ring (class comment) on {@code vector[base, base+size)}, where I am at position q of the
   * ring: reduce-scatter step s receives the chunk of the member at q-s-2 and sends that of q-s-1;
   * all-gather step s receives that of q-s-1 and sends that of q-s (positions mod g). Alone, the
   * reduce-scatter leaves partial sums in the other chunks; the all-gather alone copies every chunk
   * from its owner.
   */
  private void ring(int[] group, int me, float[] vector, int base, int size, long step, int round, Phases phases) {
    int g = group.length;
    int partFloats = ringPartFloats(size, g);
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
        forEachPart(size, g, received, base, partFloats, (p, offset, length) -> transport.expect(prev,
            new MessageId(step, round, phases.reduce, received, p), vector, offset, length, Landing.ADD));
      }
      if (gather) {
        forEachPart(size, g, copied, base, partFloats, (p, offset, length) -> transport.expect(prev,
            new MessageId(step, round, phases.gather, copied, p), vector, offset, length, Landing.COPY));
      }
    }
    if (reduce) {
      int first = members[Math.floorMod(q - 1, g)];
      forEachPart(size, g, first, base, partFloats, (p, offset, length) -> transport.publish(
          new MessageId(step, round, phases.reduce, first, p), vector, offset, length, next));
      for (int s = 1; s < g; s++) {
        int c = members[Math.floorMod(q - s - 1, g)]; // arrived in step s-1; at s = g-1 it is my own chunk
        boolean mine = c == me;
        forEachPart(size, g, c, base, partFloats, (p, offset, length) -> {
          transport.fetchAdd(prev, new MessageId(step, round, phases.reduce, c, p), vector, offset, length, timeout);
          if (!mine) {
            transport.publish(new MessageId(step, round, phases.reduce, c, p), vector, offset, length, next);
            return;
          }
          scaleInto(vector, offset, vector, offset, length, g);
          if (gather) {
            transport.publish(new MessageId(step, round, phases.gather, me, p), vector, offset, length, next);
          }
        });
      }
    } else if (gather) {
      forEachPart(size, g, me, base, partFloats, (p, offset, length) -> transport.publish(
          new MessageId(step, round, phases.gather, me, p), vector, offset, length, next));
    }
    if (gather) {
      for (int s = 1; s < g; s++) {
        int c = members[Math.floorMod(q - s, g)]; // arrived in step s-1; the last one stops here
        boolean last = s == g - 1;
        forEachPart(size, g, c, base, partFloats, (p, offset, length) -> {
          MessageId id = new MessageId(step, round, phases.gather, c, p);
          transport.fetch(prev, id, vector, offset, length, timeout);
          if (!last) {
            transport.publish(id, vector, offset, length, next);
          }
        });
      }
    }
  }

  /** Whether the members of {@code group} sit on more than one host (false when hosts are unknown). */
  private boolean spansHosts(int[] group) {
    if (hosts == null) {
      return false;
    }
    for (int r : group) {
      if (!hosts[r].equals(hosts[group[0]])) {
        return true;
      }
    }
    return false;
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

  private void checkHostsCover(int[] group) {
    for (int r : group) {
      if (r >= hosts.length) {
        throw Errors.invalidSetting("hosts", hosts.length + " hosts",
            "every rank of a group has a host, and rank " + r + " has none",
            "Pass the hosts of all the stage's ranks.");
      }
    }
  }

  /** What to do with one part of one chunk: part p, where it sits. */
  private interface ChunkPartAction {
    void at(int p, int offset, int length);
  }

  /** Every part (of {@code partFloats} floats) of chunk {@code j} of {@code vector[base, base+size)} in g chunks. */
  private static void forEachPart(int size, int g, int j, int base, int partFloats, ChunkPartAction action) {
    int chunkLength = Chunking.length(size, g, j);
    int chunkOffset = base + Chunking.offset(size, g, j);
    for (int p = 0, offset = 0; offset < chunkLength; p++, offset += partFloats) {
      action.at(p, chunkOffset + offset, Math.min(partFloats, chunkLength - offset));
    }
  }

  /** The ring's part length for a vector of {@code size} floats in g chunks (the same on every member). */
  static int ringPartFloats(int size, int g) {
    int parts = (Chunking.length(size, g, 0) + RING_PARTS_PER_CHUNK - 1) / RING_PARTS_PER_CHUNK;
    return Math.max(RING_MIN_PART_FLOATS, Math.min(PART_FLOATS, parts));
  }

  /** What to do with one part of another member's chunk: member index j, part p, where it sits. */
  private interface PartAction {
    void at(int j, int p, int offset, int length);
  }

  /** Every part of every other member's chunk, starting with the next member (as they send). */
  private static void forEachOtherPart(int[] group, int me, int base, int size, PartAction action) {
    int g = group.length;
    for (int d = 1; d < g; d++) {
      int j = (me + d) % g;
      forEachPart(size, g, j, base, PART_FLOATS, (p, offset, length) -> action.at(j, p, offset, length));
    }
  }

  /** Parts of a chunk of {@code length} floats (0 for an empty chunk). */
  static int parts(int length) {
    return (length + PART_FLOATS - 1) / PART_FLOATS;
  }

  /** Length of part {@code p} of a chunk of {@code length} floats (0 past its end). */
  static int partLength(int length, int p) {
    return Math.max(0, Math.min(PART_FLOATS, length - p * PART_FLOATS));
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
    scaleInto(sum, vector, offset, length, g);
  }

  /**
   * {@code vector[offset+x] = sum[x] / g}. For g a power of two, x * (1/g) is the same real number
   * as x / g (1/g is exact), so both round to the same float; the multiply is several times faster.
   */
  static void scaleInto(float[] sum, float[] vector, int offset, int length, int g) {
    scaleInto(sum, 0, vector, offset, length, g);
  }

  /** {@code dst[dstOffset+x] = src[srcOffset+x] / g} (in place when both are the same range). */
  static void scaleInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length, int g) {
    if (Integer.bitCount(g) == 1) {
      float inverse = 1f / g;
      for (int x = 0; x < length; x++) {
        dst[dstOffset + x] = src[srcOffset + x] * inverse;
      }
    } else {
      for (int x = 0; x < length; x++) {
        dst[dstOffset + x] = src[srcOffset + x] / g;
      }
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
