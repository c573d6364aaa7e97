package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import io.dssync.models.AutogradScalars;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSpec;

/**
 * Regression: outputs (batch, labelWidth) against real labels of that width; mean squared error, mean absolute
 * error or Huber loss (delta 1), averaged over examples and outputs. Metric R² (the uniform average over
 * outputs, as scikit-learn's r2_score); the evaluation's accuracy is NaN, as a regression has none.
 */
final class RegressionObjective extends Objective {
  private final LossKind kind;

  RegressionObjective(LossKind kind) {
    this.kind = kind;
  }

  @Override
  NDArray loss(ModelOutput out) {
    NDArray d = out.output().reshape(out.n(), out.spec().labelWidth()).sub(labels(out));
    return switch (kind) {
      case MSE -> d.square().mean();
      case L1 -> d.abs().mean();
      case HUBER -> {
        NDArray a = d.abs();
        NDArray quadratic = a.clip(0f, 1f);
        yield AutogradScalars.mul(quadratic.square(), 0.5f).add(a.sub(quadratic)).mean();
      }
      default -> throw new IllegalStateException(kind.name());
    };
  }

  @Override
  int predictionWidth(ModelSpec spec) {
    return spec.labelWidth();
  }

  @Override
  float[] probabilities(ModelOutput out) {
    return out.output().toFloatArray();
  }

  @Override
  Scorer scorer() {
    return new Scorer() {
      private RegressionSums sums;
      private double lossSum;

      @Override
      public void add(ModelOutput out) {
        int w = out.spec().labelWidth();
        if (sums == null) {
          sums = new RegressionSums(w);
        }
        lossSum += loss(out).getFloat() * (double) out.n();
        sums.add(out.output().toFloatArray(), out.labels(), out.from() * w, out.n());
      }

      @Override
      public Evaluation result() {
        if (sums == null || sums.count() == 0) {
          return new Evaluation(0, Double.NaN, 0, kind.metricName(), Double.NaN);
        }
        return new Evaluation(lossSum / sums.count(), Double.NaN, sums.count(), kind.metricName(), sums.r2());
      }
    };
  }
}
