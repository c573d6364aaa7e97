package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import io.dssync.models.ModelSpec;
import io.dssync.models.LossKind;

/**
 * The loss, the evaluation metric, the probabilities and the extra input rules of one {@link LossKind},
 * computed on a model's output. The replica stays the same for every task.
 */
abstract class Objective {
  static Objective of(LossKind kind, ReplicaModel model) {
    return switch (kind) {
      case CLASSIFICATION -> new SoftmaxObjective();
      case MASKED_LM -> new MaskedLmObjective();
      case BINARY -> new BinaryObjective();
      case MULTI_LABEL -> new MultiLabelObjective();
      case MSE, L1, HUBER -> new RegressionObjective(kind);
      case CUSTOM -> new CustomObjective(model);
    };
  }

  /** Rules of this task's inputs beyond lengths, label values and id range (see InputChecks). */
  void check(float[] features, float[] labels, int count, ModelSpec spec) {}

  /** Values per example that {@link #probabilities} returns. */
  int predictionWidth(ModelSpec spec) {
    return spec.numClasses();
  }

  /** The labels of the output's examples as an array of (n, label width), in the output's manager. */
  static NDArray labels(ModelOutput out) {
    int w = out.spec().labelWidth();
    float[] y = java.util.Arrays.copyOfRange(out.labels(), out.from() * w, (out.from() + out.n()) * w);
    return out.output().getManager().create(y, new ai.djl.ndarray.types.Shape(out.n(), w));
  }

  /** The differentiable mean loss of a training batch. */
  abstract NDArray loss(ModelOutput out);

  /** A fresh accumulator of loss and metric over the chunks of one evaluation. */
  abstract Scorer scorer();

  /** Row-major {@code n * predictionWidth} values per example for prediction: class probabilities, or outputs. */
  abstract float[] probabilities(ModelOutput out);

  /** Accumulates an evaluation chunk by chunk; the metric is computed over all chunks at the end. */
  interface Scorer {
    void add(ModelOutput out);

    Evaluation result();
  }
}
