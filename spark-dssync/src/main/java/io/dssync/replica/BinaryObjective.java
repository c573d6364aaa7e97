package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import io.dssync.data.Labels;
import io.dssync.errors.DataErrors;
import io.dssync.models.AutogradScalars;
import io.dssync.models.ModelSpec;
import io.dssync.models.LossKind;

/**
 * Binary: one logit z per example; log-loss (binary cross-entropy of sigmoid(z)); metric AUC over
 * the whole evaluated set (accuracy at threshold 0.5 alongside).
 */
final class BinaryObjective extends Objective {
  @Override
  void check(float[] features, float[] labels, int count, ModelSpec spec) {
    for (int i = 0; i < count; i++) {
      if (labels[i] != 0 && labels[i] != 1) {
        throw DataErrors.badRecord("at index " + i, "label " + Labels.format(labels[i]) + " is not 0 or 1",
            "Binary models (deepfm) need labels 0 (no click) or 1 (click) and numClasses = 2.");
      }
    }
  }

  @Override
  NDArray loss(ModelOutput out) {
    NDArray z = out.output().reshape(out.n());
    float[] y = new float[out.n()];
    for (int i = 0; i < out.n(); i++) {
      y[i] = out.labels()[out.from() + i];
    }
    NDArray target = z.getManager().create(y);
    // max(z, 0) - z*y + log(1 + exp(-|z|)): log-loss without overflow for large |z|.
    return AutogradScalars.maximum(z, 0f).sub(z.mul(target))
        .add(AutogradScalars.add(z.abs().neg().exp(), 1f).log()).mean();
  }

  @Override
  Scorer scorer() {
    return new LogitScorer(this, LossKind.BINARY.metricName());
  }

  @Override
  int predictionWidth(ModelSpec spec) {
    return 2;
  }

  @Override
  float[] probabilities(ModelOutput out) {
    float[] z = out.output().toFloatArray();
    float[] p = new float[out.n() * 2];
    for (int i = 0; i < out.n(); i++) {
      float positive = (float) (1 / (1 + Math.exp(-z[i])));
      p[2 * i] = 1 - positive;
      p[2 * i + 1] = positive;
    }
    return p;
  }
}
