package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import java.util.ArrayList;
import java.util.List;

/**
 * Gradient clipping by global norm as {@code torch.nn.utils.clip_grad_norm_} does it: the L2 norm over
 * all gradients of the replica together, and when it exceeds {@code maxNorm} every gradient is scaled by
 * {@code maxNorm / (norm + 1e-6)}, so the direction of the step is kept and only its length shrinks.
 */
final class GlobalNormClipping {
  /** PyTorch's guard against dividing by a zero norm; kept so clipped gradients match its to the last digits. */
  static final double EPSILON = 1e-6;

  private GlobalNormClipping() {}

  /** The L2 norm of all of {@code grads} as one vector (per-tensor norms summed in double). */
  static double globalNorm(List<NDArray> grads) {
    double sumOfSquares = 0;
    for (NDArray g : grads) {
      double n = g.norm().getFloat();
      sumOfSquares += n * n;
    }
    return Math.sqrt(sumOfSquares);
  }

  /**
   * {@code grads}, scaled when their global norm exceeds {@code maxNorm}; the same list when it does not
   * or when {@code maxNorm} is 0 (off), so an unclipped step is bit for bit the step without clipping.
   * Scaled gradients are new tensors in the caller's scope.
   */
  static List<NDArray> clip(List<NDArray> grads, double maxNorm) {
    if (maxNorm == 0) {
      return grads;
    }
    double coefficient = maxNorm / (globalNorm(grads) + EPSILON);
    // A NaN norm (some gradient is NaN) leaves the gradients as they are: the step diverges either way, and
    // the trainer's loss check names it.
    if (!(coefficient < 1)) {
      return grads;
    }
    List<NDArray> scaled = new ArrayList<>(grads.size());
    for (NDArray g : grads) {
      scaled.add(g.mul((float) coefficient));
    }
    return scaled;
  }
}
