package io.dssync.bench.simulate;

import io.dssync.errors.Errors;
import io.dssync.schedule.AllReduceCost;
import io.dssync.schedule.RingRule;

/**
 * Predicts the time of one DS-Sync step from a few network parameters, using the message counts
 * and bytes of our group all-reduce ({@code io.dssync.collective.GroupAllReduce}) as the auto
 * planner does ({@link AllReduceCost}): in each of its two phases (reduce-scatter, all-gather) a
 * group of g moves chunks of S/g bytes in g-1 serial exchanges, each member with each of its g-1
 * peers one after the other (direct), or each only with its successor round a ring (one flow per
 * link), so on a flat network a phase costs (g-1) x (latency + (S/g) / bandwidth) under both, and a
 * whole all-reduce 2(g-1) x (latency + S/(g x bandwidth)). {@code allReduce} says which groups run
 * the ring: every worker has a link and a host of its own here (the testbed's one executor per
 * host), so under auto every group of three or more does.
 *
 * <p>Topology: ranks sit in {@code racks} equal blocks of consecutive ranks, so the ring's host
 * order is rank order. A message between racks pays {@code interRackLatencyMs}, and every byte that
 * leaves a rack in a phase shares that rack's uplink of {@code interRackMBps}: the direct exchange
 * sends every member's chunk to every member of another rack, a ring only its g-1 chunks per phase
 * through each hop that leaves the rack. A phase lasts as long as its slowest group or its busiest
 * uplink, whichever is longer. Groups run in parallel and never wait for each other, and compute
 * and communication do not overlap (as in the worker loop).
 *
 * <p>A shaped uplink (a token bucket with a queue, like the testbed's {@code tc tbf}) passes the
 * first {@code uplinkQueueMB} of a phase at its rate; beyond that the flows overrun its queue, and
 * TCP's backing off after the drops leaves them {@code uplinkOverflowShare} of the rate. Measured on
 * the 2 x 2 testbed (100 Mbit/s uplinks, 4 flows per direction): 11.6 MB/s for a 64 KiB all-reduce,
 * 11.4 for 1 MiB, 7.3 for 4 MiB. An infinite queue (share 1) is a plain link.
 *
 * @param computeMs compute time of one step on one worker
 * @param latencyMs per-message cost inside a rack (ms)
 * @param bandwidthMBps each worker's link inside a rack (MB/s of 1e6 bytes)
 * @param racks number of racks (1 = flat network)
 * @param interRackLatencyMs per-message cost between racks (ms)
 * @param interRackMBps each rack's uplink to the others (MB/s), shared by the rack's members
 * @param uplinkQueueMB MB of a phase an uplink passes at its full rate (infinite: all)
 * @param uplinkOverflowShare the share of the rate left for the bytes beyond them, in (0, 1]
 * @param allReduce which groups average by a ring
 */
record CostModel(double computeMs, double latencyMs, double bandwidthMBps, int racks, double interRackLatencyMs,
    double interRackMBps, double uplinkQueueMB, double uplinkOverflowShare, RingRule allReduce) {

  CostModel {
    if (!(computeMs >= 0) || !(latencyMs >= 0) || !(bandwidthMBps > 0) || racks < 1 || !(interRackLatencyMs >= 0)
        || !(interRackMBps > 0) || !(uplinkQueueMB > 0) || !(uplinkOverflowShare > 0 && uplinkOverflowShare <= 1)
        || allReduce == null) {
      throw Errors.invalidSetting("cost model", this, "times must be >= 0, bandwidths and the uplink queue > 0,"
          + " the overflow share in (0, 1], racks >= 1 and the all-reduce given",
          "Check the calibration input and the --racks / --inter-rack-* / --all-reduce flags.");
    }
  }

  /** Under the trainer's default all-reduce, auto. */
  CostModel(double computeMs, double latencyMs, double bandwidthMBps, int racks, double interRackLatencyMs,
      double interRackMBps, double uplinkQueueMB, double uplinkOverflowShare) {
    this(computeMs, latencyMs, bandwidthMBps, racks, interRackLatencyMs, interRackMBps, uplinkQueueMB,
        uplinkOverflowShare, RingRule.AUTO);
  }

  /** Uplinks that pass every byte at their rate, under the trainer's default all-reduce, auto. */
  CostModel(double computeMs, double latencyMs, double bandwidthMBps, int racks, double interRackLatencyMs,
      double interRackMBps) {
    this(computeMs, latencyMs, bandwidthMBps, racks, interRackLatencyMs, interRackMBps, Double.POSITIVE_INFINITY, 1);
  }

  /** A flat network (one rack) with the given link. */
  static CostModel flat(double computeMs, double latencyMs, double bandwidthMBps) {
    return new CostModel(computeMs, latencyMs, bandwidthMBps, 1, latencyMs, bandwidthMBps);
  }

  /** Closed form on a flat network, direct or ring alike: 2(g-1) x (latency + S / (g x bandwidth)) ms. */
  double groupAllReduceMs(int g, long bytes) {
    if (g <= 1) {
      return 0;
    }
    return 2.0 * (g - 1) * (latencyMs + megabytes(bytes) / g / bandwidthMBps * 1e3);
  }

  /** The rack of {@code rank} among {@code workers}: consecutive equal blocks. */
  int rackOf(int rank, int workers) {
    return (int) ((long) rank * racks / workers);
  }

  /**
   * Synchronization time of a step whose groups are {@code groups} (a partition of the N ranks),
   * averaging {@code bytes} bytes: twice the phase time (both phases move the same messages).
   */
  double syncMs(int[][] groups, int workers, long bytes) {
    return AllReduceCost.syncMs(new Racked(this, workers), allReduce, groups, megabytes(bytes));
  }

  /** The links of {@code workers} ranks in racks of consecutive ranks, each rank on a host of its own. */
  private record Racked(CostModel model, int workers) implements AllReduceCost.Network {
    @Override
    public double hopMs(int from, int to, double chunkMB) {
      double latency = rackOf(from) != rackOf(to) ? model.interRackLatencyMs : model.latencyMs;
      return latency + chunkMB / model.bandwidthMBps * 1e3;
    }

    @Override
    public int rackOf(int rank) {
      return model.rackOf(rank, workers);
    }

    @Override
    public int racks() {
      return model.racks;
    }

    @Override
    public double uplinkMs(int rack, double megabytes) {
      return model.uplinkMs(megabytes);
    }

    @Override
    public boolean spansHosts(int[] group) {
      return group.length > 1;
    }

    @Override
    public int ringPosition(int rank) {
      return rank; // racks are consecutive blocks of ranks: host order is rank order
    }
  }

  /** The time one uplink takes to carry {@code mb} in a phase: its queue's worth at the rate, the rest slower. */
  double uplinkMs(double mb) {
    double atRate = Math.min(mb, uplinkQueueMB);
    return (atRate + (mb - atRate) / uplinkOverflowShare) / interRackMBps * 1e3;
  }

  CostModel withCompute(double ms) {
    return new CostModel(ms, latencyMs, bandwidthMBps, racks, interRackLatencyMs, interRackMBps, uplinkQueueMB,
        uplinkOverflowShare, allReduce);
  }

  CostModel withRacks(int racks, double interRackLatencyMs, double interRackMBps) {
    return new CostModel(computeMs, latencyMs, bandwidthMBps, racks, interRackLatencyMs, interRackMBps, uplinkQueueMB,
        uplinkOverflowShare, allReduce);
  }

  CostModel withAllReduce(RingRule rule) {
    return new CostModel(computeMs, latencyMs, bandwidthMBps, racks, interRackLatencyMs, interRackMBps, uplinkQueueMB,
        uplinkOverflowShare, rule);
  }

  static double megabytes(long bytes) {
    return bytes / 1e6;
  }
}
