package io.dssync.replica;

import java.io.Serializable;

/**
 * The local optimizer every replica runs. {@code kind} is "sgd" (with {@code momentum}, 0 for
 * plain SGD) or "adam" ({@code beta1}, {@code beta2}, {@code epsilon}). The learning rate is passed
 * per step so that the trainer owns the schedule.
 */
public record OptimizerSpec(
    String kind, double momentum, double weightDecay, double beta1, double beta2, double epsilon)
    implements Serializable {
  public static OptimizerSpec sgd(double momentum, double weightDecay) {
    return new OptimizerSpec("sgd", momentum, weightDecay, 0.9, 0.999, 1e-8);
  }

  public static OptimizerSpec adam(double weightDecay) {
    return new OptimizerSpec("adam", 0.0, weightDecay, 0.9, 0.999, 1e-8);
  }
}
