package io.dssync.schedule;

/**
 * The predicted time of one step's group all-reduces, the same for the auto planner (over the links
 * a probe measured) and for {@code dssync bench simulate} (over its calibrated cost model), so that
 * both price an algorithm alike.
 *
 * <p>A group of g averages in two phases (reduce-scatter, all-gather) that move the same chunks of
 * S/g, so a step costs twice a phase; groups run in parallel, and a phase lasts as long as its
 * slowest group or its busiest uplink (the bytes that leave a rack in the phase, over the uplink).
 * <ul>
 *   <li>Direct: each member sends its chunk to each of its g - 1 peers, one after the other; a
 *       member's phase is the sum of its g - 1 hops, and each hop to another rack puts a chunk on
 *       the sender's uplink.
 *   <li>Ring ({@link RingRule}): g - 1 steps per phase; in each, every member sends one chunk to its
 *       successor in ring order only, so a step lasts as long as its slowest hop. Each
 *       hop that leaves a rack is one flow that carries g - 1 chunks per phase; in host order a ring
 *       over R racks has R such hops (two racks: once each way), where the direct exchange sends
 *       every member's chunks to every member of the other racks.
 * </ul>
 * On a flat network both cost 2(g - 1) x (latency + S / (g x bandwidth)).
 */
public final class AllReduceCost {
  private AllReduceCost() {}

  /** The links the chunks travel. */
  public interface Network {
    /** The time of one chunk of {@code chunkMB} (MB of 1e6 bytes) from {@code from} to {@code to}. */
    double hopMs(int from, int to, double chunkMB);

    /** The rack of {@code rank}, 0 .. {@link #racks()} - 1. */
    int rackOf(int rank);

    int racks();

    /** The time rack {@code rack}'s uplink takes to carry {@code megabytes} in one phase. */
    double uplinkMs(int rack, double megabytes);

    /** Whether {@code group}'s members sit on more than one host. */
    boolean spansHosts(int[] group);

    /** The place of {@code rank} in the order a ring passes the ranks. */
    int ringPosition(int rank);
  }

  /** Both phases of every group of {@code groups} averaging {@code stateMB}, under {@code allReduce}. */
  public static double syncMs(Network network, RingRule allReduce, int[][] groups, double stateMB) {
    return syncMs(network, allReduce, false, groups, stateMB);
  }

  /**
   * As above; with {@code halvesAcrossRacks} a group whose members sit in more than one rack moves
   * halves (2 bytes a value) and exchanges directly, as the trainer does under
   * {@code --cross-rack-precision fp16}.
   */
  public static double syncMs(Network network, RingRule allReduce, boolean halvesAcrossRacks, int[][] groups,
      double stateMB) {
    double slowestGroup = 0;
    double[] uplinkMB = new double[network.racks()];
    for (int[] group : groups) {
      if (group.length <= 1) {
        continue;
      }
      boolean halves = halvesAcrossRacks && GroupSchedule.spansRacks(group, network::rackOf);
      double chunkMB = stateMB / group.length * (halves ? 0.5 : 1);
      double phaseMs = !halves && allReduce.ring(group.length, network.spansHosts(group))
          ? ringPhaseMs(network, group, chunkMB, uplinkMB) : directPhaseMs(network, group, chunkMB, uplinkMB);
      slowestGroup = Math.max(slowestGroup, phaseMs);
    }
    double busiestUplink = 0;
    for (int r = 0; r < uplinkMB.length; r++) {
      busiestUplink = Math.max(busiestUplink, network.uplinkMs(r, uplinkMB[r]));
    }
    return 2 * Math.max(slowestGroup, busiestUplink);
  }

  /** One phase of the direct exchange; adds the chunks that leave each rack to {@code uplinkMB}. */
  private static double directPhaseMs(Network network, int[] group, double chunkMB, double[] uplinkMB) {
    double slowestMember = 0;
    for (int member : group) {
      double time = 0;
      for (int peer : group) {
        if (peer != member) {
          time += network.hopMs(member, peer, chunkMB);
          addIfLeaving(network, member, peer, chunkMB, uplinkMB);
        }
      }
      slowestMember = Math.max(slowestMember, time);
    }
    return slowestMember;
  }

  /** One phase of the ring; adds the chunks that leave each rack to {@code uplinkMB}. */
  private static double ringPhaseMs(Network network, int[] group, double chunkMB, double[] uplinkMB) {
    int[] ring = inRingOrder(network, group);
    int steps = ring.length - 1;
    double slowestHop = 0;
    for (int q = 0; q < ring.length; q++) {
      int from = ring[q];
      int to = ring[(q + 1) % ring.length];
      slowestHop = Math.max(slowestHop, network.hopMs(from, to, chunkMB));
      addIfLeaving(network, from, to, steps * chunkMB, uplinkMB);
    }
    return steps * slowestHop;
  }

  /**
   * The members of {@code group} sorted by their place in the ring: an insertion sort, as groups are
   * small and usually in ring order already (the simulator's calibration prices millions of them).
   */
  private static int[] inRingOrder(Network network, int[] group) {
    int[] ring = group.clone();
    for (int i = 1; i < ring.length; i++) {
      int rank = ring[i];
      int position = network.ringPosition(rank);
      int j = i - 1;
      for (; j >= 0 && network.ringPosition(ring[j]) > position; j--) {
        ring[j + 1] = ring[j];
      }
      ring[j + 1] = rank;
    }
    return ring;
  }

  private static void addIfLeaving(Network network, int from, int to, double megabytes, double[] uplinkMB) {
    int rack = network.rackOf(from);
    if (network.rackOf(to) != rack) {
      uplinkMB[rack] += megabytes;
    }
  }
}
