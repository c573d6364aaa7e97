package io.dssync.schedule;

import java.util.SplittableRandom;

/**
 * How fast a schedule drives the replicas to agreement: N random vectors of a small dimension are
 * averaged inside the groups the real schedule gives at each step, and the spread D_t = sum_i
 * ||x_i - mean||^2 is tracked (group averaging keeps the mean, so D_t only shrinks). With random
 * groups of g the expected one-step ratio is (N-g)/(g(N-1)); a fixed partition stalls; butterfly
 * reaches 0 after m steps when N = g^m. Used by {@code dssync bench simulate} and by the auto planner.
 *
 * @param firstStep mean of D_1 / D_0 over the trials (the one-step contraction)
 * @param perStep geometric mean per step over {@code window} steps: (D_window / D_0)^(1/window), trial mean
 * @param stepsToConsensus mean over trials of the first step t with D_t / D_0 below {@link #CONSENSUS},
 *     or {@code maxSteps + 1} when it is not reached within maxSteps
 */
public record ConsensusSimulation(double firstStep, double perStep, double stepsToConsensus) {
  /** D_t / D_0 below which the replicas count as agreeing. */
  public static final double CONSENSUS = 1e-3;
  /** Below this D_t / D_0 is rounding noise: exact agreement. */
  private static final double EXACT = 1e-20;

  public static ConsensusSimulation run(GroupSchedule schedule, int dimension, int trials, int window, int maxSteps,
      long seed) {
    int n = schedule.workers();
    double first = 0;
    double perStep = 0;
    double steps = 0;
    SplittableRandom random = new SplittableRandom(seed);
    for (int trial = 0; trial < trials; trial++) {
      double[][] x = new double[n][dimension];
      for (double[] row : x) {
        for (int d = 0; d < dimension; d++) {
          row[d] = random.nextGaussian();
        }
      }
      double d0 = spread(x);
      double atWindow = Double.NaN;
      int reached = maxSteps + 1;
      int horizon = Math.max(window, maxSteps);
      for (int t = 0; t < horizon; t++) {
        average(x, schedule.groupsAt(t), dimension);
        double ratio = spread(x) / d0;
        if (ratio < EXACT) {
          ratio = 0;
        }
        if (t == 0) {
          first += ratio;
        }
        if (t + 1 == window) {
          atWindow = ratio;
        }
        if (ratio < CONSENSUS && reached > maxSteps) {
          reached = t + 1;
        }
        if (ratio == 0 && t + 1 >= window) {
          break; // nothing left to shrink
        }
      }
      perStep += Math.pow(atWindow, 1.0 / window);
      steps += reached;
    }
    return new ConsensusSimulation(first / trials, perStep / trials, steps / trials);
  }

  /**
   * How far apart the replicas stay while they keep training: every step each of N replicas takes
   * an independent random step (unit variance per coordinate, standing in for its own gradient),
   * then the schedule's groups average. Returns the mean spread per replica and coordinate after
   * averaging, over {@code window} steps after {@code warmUp} steps: 0 for full, about
   * rho / (1 - rho) x (N - 1) / N for random groups with one-step contraction rho, and growing
   * with the gap between cross-rack steps for topology. Unlike steps-to-consensus it sees the
   * drift a schedule allows between its mixing steps.
   */
  public static double steadySpread(GroupSchedule schedule, int dimension, int warmUp, int window, long seed) {
    int n = schedule.workers();
    SplittableRandom random = new SplittableRandom(seed);
    double[][] x = new double[n][dimension];
    double total = 0;
    for (int t = 0; t < warmUp + window; t++) {
      for (double[] row : x) {
        for (int d = 0; d < dimension; d++) {
          row[d] += random.nextGaussian();
        }
      }
      average(x, schedule.groupsAt(t), dimension);
      if (t >= warmUp) {
        total += spread(x) / ((double) n * dimension);
      }
    }
    return total / window;
  }

  private static void average(double[][] x, int[][] groups, int dimension) {
    double[] mean = new double[dimension];
    for (int[] group : groups) {
      if (group.length < 2) {
        continue;
      }
      java.util.Arrays.fill(mean, 0);
      for (int member : group) {
        for (int d = 0; d < dimension; d++) {
          mean[d] += x[member][d];
        }
      }
      for (int d = 0; d < dimension; d++) {
        mean[d] /= group.length;
      }
      for (int member : group) {
        System.arraycopy(mean, 0, x[member], 0, dimension);
      }
    }
  }

  /** Sum over replicas of the squared distance to the replicas' mean. */
  static double spread(double[][] x) {
    int dimension = x[0].length;
    double[] mean = new double[dimension];
    for (double[] row : x) {
      for (int d = 0; d < dimension; d++) {
        mean[d] += row[d];
      }
    }
    double total = 0;
    for (double[] row : x) {
      for (int d = 0; d < dimension; d++) {
        double diff = row[d] - mean[d] / x.length;
        total += diff * diff;
      }
    }
    return total;
  }
}
