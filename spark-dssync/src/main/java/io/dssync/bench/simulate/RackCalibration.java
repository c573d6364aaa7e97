package io.dssync.bench.simulate;

import java.util.ArrayList;
import java.util.List;

/**
 * Calibrates in-rack and cross-rack links separately from one network's all-reduce table. The
 * allreduce mode cuts ranks into consecutive groups of g; with R racks of consecutive ranks, a
 * cell whose groups stay inside racks measures the in-rack link, one whose groups span racks also
 * the shared uplinks. The in-rack latency and bandwidth are fitted on the in-rack cells alone
 * ({@link CostModelFit}); then each rack's uplink (MB/s) and the per-message latency between racks
 * are chosen, with the in-rack link fixed, to minimise the largest relative error over the
 * cross-rack cells under {@link CostModel#syncMs} (slowest member or busiest uplink per phase).
 */
final class RackCalibration {
  /** One all-reduce cell of the table. */
  record Cell(int workers, int groupSize, long bytes, double timeMs) {
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

  /** The calibrated links; {@code crossCells} = 0 means no cell crossed racks (uplink not measured). */
  record Links(CostModelFit.Fit inRack, double uplinkMBps, double interRackLatencyMs, int crossCells) {
    CostModel model(double computeMs, int racks) {
      return new CostModel(computeMs, inRack.latencyMs(), inRack.bandwidthMBps(), racks,
          crossCells > 0 ? interRackLatencyMs : inRack.latencyMs(),
          crossCells > 0 ? uplinkMBps : inRack.bandwidthMBps());
    }

    /** The model's time for one all-reduce cell: both phases of every group at once. */
    double predictMs(Cell cell, int racks) {
      return model(0, racks).syncMs(cell.groups(), cell.workers(), cell.bytes());
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
      return new Links(fit, Double.NaN, Double.NaN, 0);
    }
    double bestError = Double.POSITIVE_INFINITY;
    double bestUplink = fit.bandwidthMBps();
    double bestLatency = fit.latencyMs();
    // A log grid over the uplink (100 GB/s down to 0.01 MB/s) and a linear one over latency (0 .. 1 s).
    // Fastest first: when no cell is uplink-bound every fast uplink fits equally, and the fastest is
    // the one that does not invent a bottleneck for other group shapes.
    for (double uplink = 1e5; uplink >= 0.01; uplink /= 1.02) {
      for (double latency = 0; latency <= 1000; latency += latency < 20 ? 0.5 : 5) {
        Links candidate = new Links(fit, uplink, latency, cross.size());
        double worst = 0;
        for (Cell c : cross) {
          worst = Math.max(worst, Math.abs(candidate.predictMs(c, racks) - c.timeMs()) / c.timeMs());
          if (worst >= bestError) {
            break;
          }
        }
        if (worst < bestError) {
          bestError = worst;
          bestUplink = uplink;
          bestLatency = latency;
        }
      }
    }
    return new Links(fit, bestUplink, bestLatency, cross.size());
  }
}
