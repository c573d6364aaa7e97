package io.dssync.bench.simulate;

import io.dssync.errors.Errors;
import java.util.List;

/**
 * Fits the flat cost model's latency and bandwidth to measured all-reduce times by least squares
 * on relative error (so 4 KiB points count as much as 256 MiB ones): time = a x 2(g-1) + b x
 * 2(g-1)/g x MB, with a = latency (ms) and b = 1000 / bandwidth (ms per MB).
 */
final class CostModelFit {
  /** One measured all-reduce: group size, bytes, time in ms. */
  record Point(int groupSize, long bytes, double timeMs) {}

  /** Fitted latency and bandwidth, and how many points they came from. */
  record Fit(double latencyMs, double bandwidthMBps, int points) {}

  private CostModelFit() {}

  static Fit fit(List<Point> points) {
    double s11 = 0;
    double s12 = 0;
    double s22 = 0;
    double r1 = 0;
    double r2 = 0;
    int used = 0;
    for (Point p : points) {
      if (p.groupSize() < 2 || !(p.timeMs() > 0) || !Double.isFinite(p.timeMs())) {
        continue;
      }
      double x1 = 2.0 * (p.groupSize() - 1);
      double x2 = x1 / p.groupSize() * CostModel.megabytes(p.bytes());
      double w = 1 / (p.timeMs() * p.timeMs());
      s11 += w * x1 * x1;
      s12 += w * x1 * x2;
      s22 += w * x2 * x2;
      r1 += w * x1 * p.timeMs();
      r2 += w * x2 * p.timeMs();
      used++;
    }
    if (used < 2) {
      throw Errors.invalidSetting("calibration points", used, "the fit needs at least two all-reduce measurements",
          "Run dssync bench allreduce with at least two --sizes first.");
    }
    double det = s11 * s22 - s12 * s12;
    double a = (r1 * s22 - r2 * s12) / det;
    double b = (r2 * s11 - r1 * s12) / det;
    if (!(det > 1e-12 * s11 * s22) || a < 0 || b <= 0) {
      // Degenerate (one message size) or unphysical: latency 0 and fit the bandwidth alone.
      a = 0;
      b = r2 / s22;
    }
    if (!(b > 0)) {
      throw Errors.invalidSetting("calibration points", used, "the times do not grow with the message size",
          "Measure sizes far apart, e.g. --sizes 4K,64M.");
    }
    return new Fit(a, 1e3 / b, used);
  }
}
