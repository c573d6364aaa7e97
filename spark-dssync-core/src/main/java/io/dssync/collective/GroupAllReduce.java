package io.dssync.collective;

import io.dssync.errors.ClusterErrors;
import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * Averages a float vector over the members of one group, in place, over a {@link Transport}, with
 * the direct algorithm (the default) or, for groups of three or more, a ring.
 *
 * <p>Direct two-phase algorithm ({@link DirectExchange}): two serial exchanges whatever the group size g, a
 * reduce-scatter in which member i sums chunk i in ascending member order, bit-identical to a plain float sum
 * in rank order divided by g, and an all-gather. Ring ({@link RingExchange}; {@link AllReduceAlgorithm#RING},
 * and {@link AllReduceAlgorithm#AUTO} for a group on more than one host; g >= 3): every part goes only to the
 * next member, in the order of their hosts. Halves ({@link HalvesExchange}; {@link CrossRackPrecision#FP16}):
 * the direct algorithm on each value's change since a reference every member holds. Two levels
 * ({@link #averageInRacks}): inside each rack, across the racks, inside each rack again. Vectors travel in
 * parts ({@link Parts}) so the phases pipeline.
 *
 * <p>Empty chunks (vector shorter than g) are neither sent nor fetched: both sides know the
 * lengths. A group of one returns at once without touching the transport.
 *
 * <p>Errors: {@code ClusterErrors.notInGroup} when this rank is not in the group; the transport's
 * {@code ClusterErrors.peerTimeout} (naming the missing rank) when a member does not deliver within the
 * timeout, which bounds each single wait for one peer's part; {@code DataErrors.lengthMismatch} when
 * members pass vectors of different lengths (where the transport can see it).
 *
 * <p>Keeps scratch buffers between calls: use one instance per worker, from one thread.
 */
public final class GroupAllReduce {
  private final Transport transport;
  private final AllReduceAlgorithm algorithm;
  /** Each rank's executor host, or null when unknown (one host). */
  private final String[] hosts;
  private final DirectExchange direct;
  private final RingExchange ring;
  private final HalvesExchange halves;

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
    this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
    this.hosts = hosts == null ? null : hosts.clone();
    int[] ringPosition = hosts == null ? null : new int[hosts.length];
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
    this.direct = new DirectExchange(transport, timeout);
    this.ring = new RingExchange(transport, timeout, ringPosition);
    this.halves = new HalvesExchange(transport, timeout);
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
      halves.run(group, me, vector, 0, vector.length, step, round, halfReference);
    } else if (group.length > 1) {
      exchange(group, me, vector, 0, vector.length, step, round, ExchangePhases.FLAT);
    }
  }

  private static void checkReference(float[] vector, float[] halfReference) {
    if (halfReference != null && halfReference.length != vector.length) {
      throw DataErrors.lengthMismatch("the reference of an average in halves", vector.length, halfReference.length);
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
      throw ClusterErrors.notInGroup(rank, Arrays.stream(racks).flatMapToInt(Arrays::stream).sorted().toArray());
    }
    int[] rack = racks[myRack];
    int i = indexOfSelf(rack);
    int k = rack.length;
    int size = vector.length;
    int offset = Chunking.offset(size, k, i);
    int length = Chunking.length(size, k, i);
    if (k > 1) {
      exchange(rack, i, vector, 0, size, step, round, ExchangePhases.RACK_REDUCE);
    }
    int[] across = new int[racks.length];
    for (int r = 0; r < racks.length; r++) {
      across[r] = racks[r][i];
    }
    Arrays.sort(across); // the racks' order need not be their ranks' order; every member sorts alike
    if (across.length > 1 && halfReference != null) {
      halves.run(across, Arrays.binarySearch(across, rank), vector, offset, length, step, round, halfReference);
    } else if (across.length > 1) {
      exchange(across, Arrays.binarySearch(across, rank), vector, offset, length, step, round, ExchangePhases.FLAT);
    }
    if (k > 1) {
      exchange(rack, i, vector, 0, size, step, round, ExchangePhases.RACK_GATHER);
    }
  }

  /**
   * The phases {@code phases} names on {@code vector[base, base+size)} among {@code group}, where
   * this rank is member {@code me}, with this instance's algorithm.
   */
  private void exchange(int[] group, int me, float[] vector, int base, int size, long step, int round,
      ExchangePhases phases) {
    if (hosts != null && algorithm != AllReduceAlgorithm.DIRECT) {
      checkHostsCover(group); // once, for both uses of the hosts below (auto's choice, the ring's order)
    }
    boolean useRing = switch (algorithm) {
      case DIRECT -> false;
      case RING -> true;
      case AUTO -> spansHosts(group);
    };
    if (useRing && group.length > 2) {
      ring.run(group, me, vector, base, size, step, round, phases);
    } else {
      direct.run(group, me, vector, base, size, step, round, phases);
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

  private void checkHostsCover(int[] group) {
    for (int r : group) {
      if (r >= hosts.length) {
        throw Errors.invalidSetting("hosts", hosts.length + " hosts",
            "every rank of a group has a host, and rank " + r + " has none",
            "Pass the hosts of all the stage's ranks.");
      }
    }
  }

  private int indexOfSelf(int[] group) {
    int rank = transport.rank();
    if (group == null || group.length == 0) {
      throw ClusterErrors.notInGroup(rank, group == null ? new int[0] : group);
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
      throw ClusterErrors.notInGroup(rank, group);
    }
    return index;
  }


}
