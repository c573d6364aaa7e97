package io.dssync.replica;

import java.io.Serializable;

/**
 * The local optimizer every replica runs. {@code kind} is "sgd" (heavy-ball {@code momentum}, 0 for
 * plain SGD), "sgd-nesterov" (Nesterov momentum, {@code momentum} > 0), "adamw" ({@code beta1},
 * {@code beta2}, {@code epsilon}, decoupled weight decay) or "adam" (the same optimizer under its older
 * name). {@code clipNorm} > 0 scales each step's gradients to at most that global L2 norm first. The
 * learning rate is passed per step so that the trainer owns the schedule.
 */
public record OptimizerSpec(
    String kind, double momentum, double weightDecay, double beta1, double beta2, double epsilon, double clipNorm)
    implements Serializable {
  /** An optimizer without gradient clipping. */
  public OptimizerSpec(String kind, double momentum, double weightDecay, double beta1, double beta2, double epsilon) {
    this(kind, momentum, weightDecay, beta1, beta2, epsilon, 0);
  }

  public static OptimizerSpec sgd(double momentum, double weightDecay) {
    return new OptimizerSpec("sgd", momentum, weightDecay, 0.9, 0.999, 1e-8);
  }

  public static OptimizerSpec sgdNesterov(double momentum, double weightDecay) {
    return new OptimizerSpec("sgd-nesterov", momentum, weightDecay, 0.9, 0.999, 1e-8);
  }

  /** Adam with decoupled weight decay, by its older name "adam" (runs configured so keep their name). */
  public static OptimizerSpec adam(double weightDecay) {
    return new OptimizerSpec("adam", 0.0, weightDecay, 0.9, 0.999, 1e-8);
  }

  public static OptimizerSpec adamw(double weightDecay) {
    return new OptimizerSpec("adamw", 0.0, weightDecay, 0.9, 0.999, 1e-8);
  }

  /** This optimizer with gradients clipped to global L2 norm {@code maxNorm} before each step (0 = off). */
  public OptimizerSpec withClipNorm(double maxNorm) {
    return new OptimizerSpec(kind, momentum, weightDecay, beta1, beta2, epsilon, maxNorm);
  }
}
