package io.dssync.bench.train;

import io.dssync.metrics.StageMetrics;
import java.util.ArrayList;
import java.util.List;

/**
 * Test accuracy against training time for one run: a point after every evaluation. The clock
 * counts only training (the stages, or the MLlib fit calls), never the evaluations between them,
 * so how often a run is evaluated does not change its time to a target.
 */
public record TrainBenchCurve(List<Point> points) {
  /** After {@code progress} steps (or iterations), {@code trainSeconds} of training, this accuracy. */
  public record Point(long progress, double trainSeconds, double accuracy) {}

  public TrainBenchCurve {
    points = List.copyOf(points);
  }

  /** From a trainer's history: the stages' wall times summed (evaluation is outside them). */
  static TrainBenchCurve of(List<StageMetrics> history) {
    List<Point> points = new ArrayList<>();
    double seconds = 0;
    for (StageMetrics m : history) {
      seconds += m.wallSeconds();
      if (m.evaluated()) {
        points.add(new Point(m.endStep(), seconds, m.testAccuracy()));
      }
    }
    return new TrainBenchCurve(points);
  }

  /** Training seconds at the first evaluation with accuracy >= {@code target}; NaN when never reached. */
  public double timeToTarget(double target) {
    for (Point p : points) {
      if (p.accuracy() >= target) {
        return p.trainSeconds();
      }
    }
    return Double.NaN;
  }

  public double finalAccuracy() {
    return points.isEmpty() ? Double.NaN : points.get(points.size() - 1).accuracy();
  }

  /**
   * The ratio {@code timeA / timeB} as text: the number when both reached the target; when only A
   * did, an upper bound from B's whole training time ({@code "< 0.42"}), since B would have needed longer.
   */
  public static String ratioText(double timeA, double timeB, double trainSecondsB) {
    if (Double.isFinite(timeA) && Double.isFinite(timeB)) {
      return String.format(java.util.Locale.ROOT, "%.3f", ratio(timeA, timeB));
    }
    if (Double.isFinite(timeA) && trainSecondsB > 0) {
      return String.format(java.util.Locale.ROOT, "< %.3f (the other run never reached the target in its %.2f s)",
          timeA / trainSecondsB, trainSecondsB);
    }
    return "n/a (target not reached" + (Double.isFinite(timeB) ? ")" : " by either run)");
  }

  /** {@code a / b}, NaN unless both are finite and b > 0 (a target one side never reached). */
  public static double ratio(double a, double b) {
    return Double.isFinite(a) && Double.isFinite(b) && b > 0 ? a / b : Double.NaN;
  }
}
