package io.dssync.bench.simulate;

import io.dssync.errors.Errors;

/**
 * Predicts the time of one DS-Sync step from a few network parameters, using the message counts
 * and bytes of our two-phase group all-reduce ({@code io.dssync.collective.GroupAllReduce}): in
 * each of its two phases (reduce-scatter, all-gather) every member of a group of g exchanges one
 * chunk of S/g bytes with each of its g-1 peers, one after the other, so a phase costs a member
 * (g-1) x (latency + (S/g) / bandwidth), and a whole all-reduce 2(g-1) x (latency + S/(g x bandwidth)).
 *
 * <p>Topology: ranks sit in {@code racks} equal blocks of consecutive ranks. A message between
 * racks pays {@code interRackLatencyMs}, and every byte that leaves a rack in a phase shares that
 * rack's uplink of {@code interRackMBps}; a phase lasts as long as its slowest member or its
 * busiest uplink, whichever is longer. Groups run in parallel and never wait for each other, and
 * compute and communication do not overlap (as in the worker loop).
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
 */
record CostModel(double computeMs, double latencyMs, double bandwidthMBps, int racks, double interRackLatencyMs,
    double interRackMBps, double uplinkQueueMB, double uplinkOverflowShare) {

  CostModel {
    if (!(computeMs >= 0) || !(latencyMs >= 0) || !(bandwidthMBps > 0) || racks < 1 || !(interRackLatencyMs >= 0)
        || !(interRackMBps > 0) || !(uplinkQueueMB > 0) || !(uplinkOverflowShare > 0 && uplinkOverflowShare <= 1)) {
      throw Errors.invalidSetting("cost model", this, "times must be >= 0, bandwidths and the uplink queue > 0,"
          + " the overflow share in (0, 1] and racks >= 1",
          "Check the calibration input and the --racks / --inter-rack-* flags.");
    }
  }

  /** Uplinks that pass every byte at their rate. */
  CostModel(double computeMs, double latencyMs, double bandwidthMBps, int racks, double interRackLatencyMs,
      double interRackMBps) {
    this(computeMs, latencyMs, bandwidthMBps, racks, interRackLatencyMs, interRackMBps, Double.POSITIVE_INFINITY, 1);
  }

  /** A flat network (one rack) with the given link. */
  static CostModel flat(double computeMs, double latencyMs, double bandwidthMBps) {
    return new CostModel(computeMs, latencyMs, bandwidthMBps, 1, latencyMs, bandwidthMBps);
  }

  /** Closed form on a flat network: 2(g-1) x (latency + S / (g x bandwidth)) ms. */
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
    double slowestMember = 0;
    double[] uplinkMB = new double[racks];
    for (int[] group : groups) {
      int g = group.length;
      if (g <= 1) {
        continue;
      }
      double chunkMB = megabytes(bytes) / g;
      for (int member : group) {
        int rack = rackOf(member, workers);
        double time = 0;
        for (int peer : group) {
          if (peer == member) {
            continue;
          }
          boolean crosses = rackOf(peer, workers) != rack;
          time += (crosses ? interRackLatencyMs : latencyMs) + chunkMB / bandwidthMBps * 1e3;
          if (crosses) {
            uplinkMB[rack] += chunkMB;
          }
        }
        slowestMember = Math.max(slowestMember, time);
      }
    }
    double busiestUplink = 0;
    for (double mb : uplinkMB) {
      busiestUplink = Math.max(busiestUplink, uplinkMs(mb));
    }
    return 2 * Math.max(slowestMember, busiestUplink);
  }

  /** The time one uplink takes to carry {@code mb} in a phase: its queue's worth at the rate, the rest slower. */
  double uplinkMs(double mb) {
    double atRate = Math.min(mb, uplinkQueueMB);
    return (atRate + (mb - atRate) / uplinkOverflowShare) / interRackMBps * 1e3;
  }

  CostModel withCompute(double ms) {
    return new CostModel(ms, latencyMs, bandwidthMBps, racks, interRackLatencyMs, interRackMBps, uplinkQueueMB,
        uplinkOverflowShare);
  }

  CostModel withRacks(int racks, double interRackLatencyMs, double interRackMBps) {
    return new CostModel(computeMs, latencyMs, bandwidthMBps, racks, interRackLatencyMs, interRackMBps, uplinkQueueMB,
        uplinkOverflowShare);
  }

  static double megabytes(long bytes) {
    return bytes / 1e6;
  }
}
