package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import io.dssync.errors.Errors;
import java.util.List;

/**
 * An optimizer implemented on the parameter tensors, so that its state is a list of tensors in
 * parameter order (a flat vector the trainer can save, restore and average).
 */
abstract class LocalOptimizer {
  static final String[] KINDS = {"sgd", "sgd-nesterov", "adamw", "adam"};

  private final double clipNorm;

  LocalOptimizer(OptimizerSpec spec) {
    this.clipNorm = spec.clipNorm();
  }

  /** Builds the optimizer named by {@code spec} with zero state shaped like {@code params}. */
  static LocalOptimizer create(OptimizerSpec spec, List<NDArray> params, NDManager manager) {
    check(spec);
    return switch (spec.kind()) {
      case "sgd" -> new SgdOptimizer(spec, false, params, manager);
      case "sgd-nesterov" -> new SgdOptimizer(spec, true, params, manager);
      case "adam", "adamw" -> new AdamOptimizer(spec, params, manager);
      default -> throw Errors.unknownName("optimizer", spec.kind(), KINDS);
    };
  }

  /**
   * One optimizer step: clips {@code grads} by global norm when asked, then {@link #update}s.
   * {@code step} counts updates from 1 (this one included). Temporaries belong to the caller's scope.
   */
  final void step(List<NDArray> params, List<NDArray> grads, float learningRate, long step) {
    update(params, GlobalNormClipping.clip(grads, clipNorm), learningRate, step);
  }

  /** Updates {@code params} in place from {@code grads}; see {@link #step}. */
  abstract void update(List<NDArray> params, List<NDArray> grads, float learningRate, long step);

  /** The optimizer state as tensors in parameter order (empty when stateless). */
  abstract FlatTensors state();

  static List<NDArray> zerosLike(List<NDArray> params, NDManager manager) {
    return params.stream().map(p -> manager.zeros(p.getShape())).toList();
  }

  private static void check(OptimizerSpec spec) {
    if (spec.kind() == null) {
      throw Errors.unknownName("optimizer", "null", KINDS);
    }
    inUnitInterval(Errors.flag("momentum"), spec.momentum());
    inUnitInterval("optimizer.beta1", spec.beta1());
    inUnitInterval("optimizer.beta2", spec.beta2());
    if (!(spec.weightDecay() >= 0) || Double.isInfinite(spec.weightDecay())) {
      throw Errors.invalidFlag("weightDecay", spec.weightDecay(),
          "must be finite and >= 0", "Use 0 for no weight decay, typically 1e-4 to 5e-4.");
    }
    if (!(spec.epsilon() > 0) || Double.isInfinite(spec.epsilon())) {
      throw Errors.invalidSetting("optimizer.epsilon", spec.epsilon(), "must be finite and > 0",
          "The usual value is 1e-8.");
    }
    if (!(spec.clipNorm() >= 0) || Double.isInfinite(spec.clipNorm())) {
      throw Errors.invalidFlag("clipNorm", spec.clipNorm(), "must be finite and >= 0",
          "Use 0 to train without clipping, or a norm such as 1.0.");
    }
    if ("sgd-nesterov".equals(spec.kind()) && spec.momentum() == 0) {
      throw Errors.invalidFlag("momentum", 0.0, "Nesterov momentum needs a momentum > 0",
          "Use --momentum 0.9 with sgd-nesterov, or --optimizer sgd for plain SGD.");
    }
  }

  private static void inUnitInterval(String key, double value) {
    if (!(value >= 0 && value < 1)) {
      throw Errors.invalidSetting(key, value, "must be in [0, 1)", "Typical values are 0.9"
          + " (momentum, beta1) and 0.999 (beta2).");
    }
  }
}
