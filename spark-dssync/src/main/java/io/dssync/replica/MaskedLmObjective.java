package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;
import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import io.dssync.models.AutogradScalars;
import io.dssync.models.ModelSpec;
import io.dssync.models.LossKind;

/**
 * Masked-LM: the model outputs (M, vocabSize) logits for the M positions whose target (feature
 * row 1) is a token id, in example-then-position order; -1 positions are not scored. Loss is the
 * cross-entropy averaged over those M positions; the metric is masked-token accuracy.
 */
final class MaskedLmObjective extends Objective {
  /** Feature row holding the original ids at masked positions and -1 elsewhere. */
  static final int TARGET_ROW = 1;
  static final int NOT_MASKED = -1;

  @Override
  void check(float[] features, float[] labels, int count, ModelSpec spec) {
    int width = spec.width();
    for (int i = 0; i < count; i++) {
      int base = i * spec.featureSize() + TARGET_ROW * width;
      for (int p = 0; p < width; p++) {
        float t = features[base + p];
        if (t != NOT_MASKED && !(t >= 0 && t < spec.vocabSize() && t == Math.rint(t))) {
          throw DataErrors.badRecord("at example " + i + ", position " + p, "masked-LM target " + t
              + " is neither -1 (not masked) nor a token id in 0.." + (spec.vocabSize() - 1),
              "Row 1 of a masked-LM example holds the original id at masked positions and -1 elsewhere.");
        }
      }
    }
  }

  @Override
  NDArray loss(ModelOutput out) {
    int[] targets = targets(out);
    return AutogradScalars.div(crossEntropySum(out.output(), targets), (float) Math.max(1, targets.length));
  }

  @Override
  Scorer scorer() {
    return new Scorer() {
      private double lossSum;
      private long correct;
      private long masked;
      private long examples;

      @Override
      public void add(ModelOutput out) {
        int[] targets = targets(out);
        examples += out.n();
        if (targets.length == 0) {
          return;
        }
        lossSum += crossEntropySum(out.output(), targets).getFloat();
        long[] predicted = out.output().argMax(1).toLongArray();
        for (int m = 0; m < targets.length; m++) {
          correct += predicted[m] == targets[m] ? 1 : 0;
        }
        masked += targets.length;
      }

      @Override
      public Evaluation result() {
        double accuracy = masked == 0 ? 0 : (double) correct / masked;
        return new Evaluation(masked == 0 ? 0 : lossSum / masked, accuracy, examples,
            LossKind.MASKED_LM.metricName(), accuracy);
      }
    };
  }

  @Override
  float[] probabilities(ModelOutput out) {
    throw Errors.invalidSetting("predict with a masked-LM model", out.spec().name(),
        "a masked-LM model scores masked positions, not whole examples",
        "Evaluate it (masked-token accuracy), or train a bert-cls model to classify sequences.");
  }

  /** The targets of the masked positions of the output's examples, in the model's output order. */
  static int[] targets(ModelOutput out) {
    ModelSpec spec = out.spec();
    int width = spec.width();
    int[] buffer = new int[out.n() * width];
    int m = 0;
    for (int i = 0; i < out.n(); i++) {
      int base = (out.from() + i) * spec.featureSize() + TARGET_ROW * width;
      for (int p = 0; p < width; p++) {
        float t = out.features()[base + p];
        if (t != NOT_MASKED) {
          buffer[m++] = (int) t;
        }
      }
    }
    return java.util.Arrays.copyOf(buffer, m);
  }

  /** Sum over rows of -log softmax(logits)[row, target[row]]. */
  private static NDArray crossEntropySum(NDArray logits, int[] targets) {
    NDArray index = logits.getManager().create(toLongs(targets), new Shape(targets.length, 1));
    return logits.logSoftmax(1).gather(index, 1).sum().neg();
  }

  private static long[] toLongs(int[] values) {
    long[] out = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i];
    }
    return out;
  }
}
