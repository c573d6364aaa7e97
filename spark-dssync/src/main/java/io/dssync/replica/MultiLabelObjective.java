package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import io.dssync.errors.DataErrors;
import io.dssync.models.AutogradScalars;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSpec;

/**
 * Multi-label: one logit per label (batch, labelWidth), labels 0 or 1; binary cross-entropy of each sigmoid,
 * averaged over examples and labels. Metric: the AUC over all (example, label) pairs (micro-averaged); the
 * accuracy is per label at threshold 0.5.
 */
final class MultiLabelObjective extends Objective {
  @Override
  void check(float[] features, float[] labels, int count, ModelSpec spec) {
    for (int i = 0; i < labels.length; i++) {
      if (labels[i] != 0 && labels[i] != 1) {
        throw DataErrors.badRecord("at index " + i / spec.labelWidth(), "label value " + i % spec.labelWidth() + " is "
            + labels[i] + ", not 0 or 1", "Multi-label targets are 0/1 per label; for real values use --loss mse.");
      }
    }
  }

  @Override
  NDArray loss(ModelOutput out) {
    NDArray z = out.output().reshape(out.n(), out.spec().labelWidth());
    // max(z, 0) - z*y + log(1 + exp(-|z|)): log-loss without overflow for large |z|.
    return AutogradScalars.maximum(z, 0f).sub(z.mul(labels(out)))
        .add(AutogradScalars.add(z.abs().neg().exp(), 1f).log()).mean();
  }

  @Override
  int predictionWidth(ModelSpec spec) {
    return spec.labelWidth();
  }

  @Override
  float[] probabilities(ModelOutput out) {
    float[] z = out.output().toFloatArray();
    float[] p = new float[z.length];
    for (int i = 0; i < z.length; i++) {
      p[i] = (float) (1 / (1 + Math.exp(-z[i])));
    }
    return p;
  }

  @Override
  Scorer scorer() {
    return new LogitScorer(this, LossKind.MULTI_LABEL.metricName());
  }
}
