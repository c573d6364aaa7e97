package io.dssync.train;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The {@code step} schedule's decay after warm-up: the rate is multiplied by {@code factor} every
 * {@code every} steps (PyTorch's StepLR) or, when {@code every} is 0, at each milestone, given as a
 * fraction of the steps after warm-up so it scales with the run's length (PyTorch's MultiStepLR).
 */
record StepDecay(double factor, double[] milestones, int every) implements Serializable {
  /** x0.1 at half and at three quarters of the steps after warm-up: the step schedule's long-standing shape. */
  static final StepDecay DEFAULT = new StepDecay(0.1, new double[] {0.5, 0.75}, 0);

  /** The multiplier of the peak rate {@code stepsAfterWarmup} steps after warm-up, {@code progress} of the way. */
  double multiplier(long stepsAfterWarmup, double progress) {
    long decays = every > 0 ? stepsAfterWarmup / every
        : Arrays.stream(milestones).filter(m -> progress >= m).count();
    double m = 1;
    for (long i = 0; i < decays; i++) {
      m *= factor;
    }
    return m;
  }

  /** Whether {@code text} is milestones as {@link #parseMilestones} reads them. */
  static boolean validMilestones(String text) {
    try {
      parseMilestones(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** "0.5,0.75" as fractions, each in (0, 1) and larger than the one before; throws otherwise. */
  static double[] parseMilestones(String text) {
    String[] parts = text.split(",", -1);
    double[] out = new double[parts.length];
    for (int i = 0; i < parts.length; i++) {
      out[i] = Double.parseDouble(parts[i].trim());
      if (!(out[i] > 0 && out[i] < 1) || (i > 0 && !(out[i] > out[i - 1]))) {
        throw new IllegalArgumentException("milestone " + parts[i].trim() + " out of order or range");
      }
    }
    return out;
  }
}
