package io.dssync.train;

import java.util.Arrays;

/**
 * Stochastic weight averaging over workers on the driver: the running mean of the consensus models of every stage
 * that ends after {@code startStep}. Each consensus already averages all workers' trajectories, so this mean
 * ensembles them over time as well. Its mean and count go into checkpoints ({@link FitProgress}).
 */
final class SwaAverage {
  private final long startStep;
  private float[] mean;
  private int count;

  /** {@code startStep} &lt; 0: off. */
  SwaAverage(long startStep, float[] mean, int count) {
    this.startStep = startStep;
    this.mean = mean;
    this.count = count;
  }

  /**
   * The average a fit of {@code totalSteps} in stages of {@code stepsPerStage} keeps with {@code --swa-start} =
   * {@code fraction} (0 = off): it starts at the first stage boundary at or after that share of the steps, so every
   * averaged stage ran wholly at the SWA learning rate.
   */
  static SwaAverage of(double fraction, long totalSteps, int stepsPerStage) {
    if (fraction <= 0) {
      return new SwaAverage(-1, new float[0], 0);
    }
    long start = (long) Math.ceil(fraction * totalSteps / stepsPerStage) * stepsPerStage;
    return new SwaAverage(start, new float[0], 0);
  }

  boolean enabled() {
    return startStep >= 0;
  }

  /** The step from which the SWA learning rate applies and after which stage ends are averaged (-1: off). */
  long startStep() {
    return startStep;
  }

  /** Adds the consensus of the stage ending at {@code endStep} when it ends after the start. */
  void add(long endStep, float[] consensus) {
    if (!enabled() || endStep <= startStep) {
      return;
    }
    if (count == 0) {
      mean = Arrays.copyOf(consensus, consensus.length);
    } else {
      float weight = 1f / (count + 1);
      for (int i = 0; i < mean.length; i++) {
        mean[i] += (consensus[i] - mean[i]) * weight;
      }
    }
    count++;
  }

  /** Continues from a checkpoint's mean and count. */
  void restore(float[] savedMean, int savedCount) {
    mean = savedMean;
    count = savedCount;
  }

  int count() {
    return count;
  }

  /** The mean so far; empty before any stage was averaged. */
  float[] mean() {
    return mean;
  }
}
