package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import io.dssync.errors.Errors;
import io.dssync.models.AutogradScalars;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSpec;
import java.util.Arrays;

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
        throw Errors.badRecord("at index " + i / spec.labelWidth(), "label value " + i % spec.labelWidth() + " is "
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
    return new Scorer() {
      private float[] scores = new float[1024];
      private float[] labels = new float[1024];
      private int count;
      private long examples;
      private double lossSum;
      private long correct;

      @Override
      public void add(ModelOutput out) {
        int w = out.spec().labelWidth();
        lossSum += loss(out).getFloat() * (double) out.n();
        float[] z = out.output().toFloatArray();
        if (count + z.length > scores.length) {
          int size = Math.max(scores.length * 2, count + z.length);
          scores = Arrays.copyOf(scores, size);
          labels = Arrays.copyOf(labels, size);
        }
        for (int k = 0; k < z.length; k++) {
          float label = out.labels()[out.from() * w + k];
          scores[count] = z[k];
          labels[count] = label;
          correct += (z[k] > 0) == (label == 1) ? 1 : 0;
          count++;
        }
        examples += out.n();
      }

      @Override
      public Evaluation result() {
        if (count == 0) {
          return new Evaluation(0, 0, 0, LossKind.MULTI_LABEL.metricName(), Double.NaN);
        }
        return new Evaluation(lossSum / examples, (double) correct / count, examples,
            LossKind.MULTI_LABEL.metricName(), Auc.of(scores, labels, count));
      }
    };
  }
}
