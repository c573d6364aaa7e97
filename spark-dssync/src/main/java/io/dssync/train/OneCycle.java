package io.dssync.train;

import java.io.Serializable;

/**
 * Smith's one-cycle learning rate as PyTorch's {@code OneCycleLR} computes it (two phases, cosine
 * annealing; momentum is not cycled): from {@code peak/divFactor} up to {@code peak} over the first
 * {@code pctStart} of the run, then down to {@code peak/divFactor/finalDivFactor} at its last step.
 */
record OneCycle(double pctStart, double divFactor, double finalDivFactor) implements Serializable {
  /** PyTorch's defaults. */
  static final OneCycle DEFAULT = new OneCycle(0.3, 25, 1e4);

  double at(double peak, long step, long totalSteps) {
    double initial = peak / divFactor;
    double minimum = initial / finalDivFactor;
    // PyTorch's phase boundaries: the warm-up ends at step pctStart*total - 1, the annealing at total - 1.
    double warmupEnd = pctStart * totalSteps - 1;
    double end = totalSteps - 1;
    if (step <= warmupEnd) {
      // A warm-up ending at step 0 (pctStart*total = 1) has step 0 as its only step, where PyTorch divides
      // 0 by 0: it starts the cycle, at the initial rate.
      return annealCos(initial, peak, warmupEnd <= 0 ? 0 : step / warmupEnd);
    }
    // pctStart < 1 makes the annealing span positive; past the last step the rate stays at the minimum.
    return annealCos(peak, minimum, Math.min(1, (step - warmupEnd) / (end - warmupEnd)));
  }

  /** PyTorch's {@code _annealing_cos}: from {@code start} at pct 0 to {@code end} at pct 1 along half a cosine. */
  private static double annealCos(double start, double end, double pct) {
    return end + (start - end) / 2.0 * (Math.cos(Math.PI * pct) + 1);
  }
}
