package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import io.dssync.models.ModelSpec;
import io.dssync.models.LossKind;

/**
 * The loss, the evaluation metric, the probabilities and the extra input rules of one {@link LossKind},
 * computed on a model's output. The replica stays the same for every task.
 */
abstract class Objective {
  static Objective of(LossKind kind) {
    return switch (kind) {
      case CLASSIFICATION -> new SoftmaxObjective();
      case MASKED_LM -> new MaskedLmObjective();
      case BINARY -> new BinaryObjective();
    };
  }

  /** Rules of this task's inputs beyond lengths, label range and id range (see InputChecks). */
  void check(float[] features, int[] labels, int count, ModelSpec spec) {}

  /** The differentiable mean loss of a training batch. */
  abstract NDArray loss(ModelOutput out);

  /** A fresh accumulator of loss and metric over the chunks of one evaluation. */
  abstract Scorer scorer();

  /** Row-major {@code n * numClasses} probabilities of examples, for prediction. */
  abstract float[] probabilities(ModelOutput out);

  /** Accumulates an evaluation chunk by chunk; the metric is computed over all chunks at the end. */
  interface Scorer {
    void add(ModelOutput out);

    Evaluation result();
  }
}
