package io.dssync.bench.simulate;

import io.dssync.schedule.RingRule;
import java.util.ArrayList;
import java.util.List;

/**
 * Calibrates in-rack and cross-rack links separately from one network's all-reduce table. The
 * allreduce mode cuts ranks into consecutive groups of g; with R racks of consecutive ranks, a
 * cell whose groups stay inside racks measures the in-rack link, one whose groups span racks also
 * the shared uplinks. The in-rack latency and bandwidth are fitted on the in-rack cells alone
 * ({@link CostModelFit}); then each rack's uplink (MB/s), the per-message latency between racks
 * and the uplink's queue and overflow share ({@link CostModel}) are chosen, with the in-rack link
 * fixed, to minimise the largest relative error over the cross-rack cells under
 * {@link CostModel#syncMs} (slowest group or busiest uplink per phase), each cell priced for the
 * all-reduce it was measured with. A plain uplink (no queue effect) is tried first and kept unless a
 * queue fits strictly better.
 */
final class RackCalibration {
  /** One all-reduce cell of the table, measured with {@code allReduce}. */
  record Cell(int workers, int groupSize, long bytes, double timeMs, RingRule allReduce) {
    /** The groups the allreduce mode ran: consecutive blocks of g, leftovers sitting out. */
    int[][] groups() {
      int count = workers / groupSize;
      int[][] groups = new int[count][groupSize];
      for (int k = 0; k < count; k++) {
        for (int i = 0; i < groupSize; i++) {
          groups[k][i] = k * groupSize + i;
        }
      }
      return groups;
    }

    boolean crossesRacks(int racks) {
      CostModel layout = CostModel.flat(0, 0, 1).withRacks(racks, 0, 1);
      for (int[] group : groups()) {
        if (layout.rackOf(group[0], workers) != layout.rackOf(group[group.length - 1], workers)) {
          return true;
        }
      }
      return false;
    }
  }

  /** Queues tried (MB of a phase at the uplink's rate), besides none (a plain link). */
  static final double[] QUEUE_MB = {0.5, 1, 1.5, 2, 3, 4, 6, 8};
  /** Shares of the rate tried for the bytes beyond the queue. */
  static final double[] OVERFLOW_SHARES = {0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3};

  /** The calibrated links; {@code crossCells} = 0 means no cell crossed racks (uplink not measured). */
  record Links(CostModelFit.Fit inRack, double uplinkMBps, double interRackLatencyMs, double uplinkQueueMB,
      double uplinkOverflowShare, int crossCells) {
    CostModel model(double computeMs, int racks) {
      return crossCells > 0
          ? new CostModel(computeMs, inRack.latencyMs(), inRack.bandwidthMBps(), racks, interRackLatencyMs,
              uplinkMBps, uplinkQueueMB, uplinkOverflowShare)
          : new CostModel(computeMs, inRack.latencyMs(), inRack.bandwidthMBps(), racks, inRack.latencyMs(),
              inRack.bandwidthMBps());
    }

    /** The model's time for one all-reduce cell: both phases of every group at once. */
    double predictMs(Cell cell, int racks) {
      return model(0, racks).withAllReduce(cell.allReduce()).syncMs(cell.groups(), cell.workers(), cell.bytes());
    }
  }

  private RackCalibration() {}

  static Links calibrate(List<Cell> cells, int racks) {
    List<CostModelFit.Point> inRack = new ArrayList<>();
    List<Cell> cross = new ArrayList<>();
    for (Cell c : cells) {
      if (racks > 1 && c.crossesRacks(racks)) {
        cross.add(c);
      } else {
        inRack.add(new CostModelFit.Point(c.groupSize(), c.bytes(), c.timeMs()));
      }
    }
    if (inRack.size() < 2) { // too few in-rack cells: one fit over all, as a flat network
      inRack.clear();
      cells.forEach(c -> inRack.add(new CostModelFit.Point(c.groupSize(), c.bytes(), c.timeMs())));
      cross.clear();
    }
    CostModelFit.Fit fit = CostModelFit.fit(inRack);
    if (cross.isEmpty()) {
      return new Links(fit, Double.NaN, Double.NaN, Double.POSITIVE_INFINITY, 1, 0);
    }
    int[][][] groups = cross.stream().map(Cell::groups).toArray(int[][][]::new);
    Fitted plain = search(fit, racks, cross, groups, Double.POSITIVE_INFINITY, 1, FINE);
    // Queues on a coarse grid first (a fine one for each would take seconds), then the best one finely.
    Fitted coarse = null;
    for (double queue : QUEUE_MB) {
      for (double share : OVERFLOW_SHARES) {
        Fitted f = search(fit, racks, cross, groups, queue, share, COARSE);
        if (coarse == null || f.worstError() < coarse.worstError()) {
          coarse = f;
        }
      }
    }
    Fitted queued = search(fit, racks, cross, groups, coarse.links().uplinkQueueMB(),
        coarse.links().uplinkOverflowShare(), FINE);
    return queued.worstError() < plain.worstError() ? queued.links() : plain.links();
  }

  /** How finely the uplink (ratio between neighbours) and the latency (ms steps below and above 20 ms) are searched. */
  private record Grid(double uplinkRatio, double latencyStepBelow20, double latencyStepAbove20) {}

  private static final Grid FINE = new Grid(1.02, 0.5, 5);
  private static final Grid COARSE = new Grid(1.1, 2, 20);

  private record Fitted(Links links, double worstError) {}

  /**
   * The uplink and inter-rack latency with the least worst relative error over the cross-rack cells,
   * for one queue and overflow share. A log grid over the uplink (100 GB/s down to 0.01 MB/s) and a
   * linear one over latency (0 .. 1 s). Fastest first: when no cell is uplink-bound every fast uplink
   * fits equally, and the fastest is the one that does not invent a bottleneck for other group shapes.
   */
  private static Fitted search(CostModelFit.Fit fit, int racks, List<Cell> cross, int[][][] groups, double queue,
      double share, Grid grid) {
    Links best = null;
    double bestError = Double.POSITIVE_INFINITY;
    for (double uplink = 1e5; uplink >= 0.01; uplink /= grid.uplinkRatio()) {
      for (double latency = 0; latency <= 1000;
          latency += latency < 20 ? grid.latencyStepBelow20() : grid.latencyStepAbove20()) {
        CostModel model = new CostModel(0, fit.latencyMs(), fit.bandwidthMBps(), racks, latency, uplink, queue, share);
        double worst = 0;
        for (int i = 0; i < groups.length && worst < bestError; i++) {
          Cell c = cross.get(i);
          double predicted = model.withAllReduce(c.allReduce()).syncMs(groups[i], c.workers(), c.bytes());
          worst = Math.max(worst, Math.abs(predicted - c.timeMs()) / c.timeMs());
        }
        if (worst < bestError) {
          bestError = worst;
          best = new Links(fit, uplink, latency, queue, share, cross.size());
        }
      }
    }
    return new Fitted(best, bestError);
  }
}
