package io.dssync.ml;

import io.dssync.models.LossKind;

/**
 * The three classifier columns of one row, from the network's outputs, as Spark's ProbabilisticClassificationModel
 * defines them: rawPrediction (per-class scores), probability (their softmax) and prediction (the class of the
 * largest score, or with thresholds the largest probability / threshold).
 *
 * <p>rawPrediction is the network's logits. For two classes it is (0, z), z the log-odds of class 1: the binary
 * model's one logit, or l1 - l0 of a two-logit network (softmax ignores the shift). So element 1 orders rows like
 * P(1), which is what BinaryClassificationEvaluator reads, and the probability is always softmax(rawPrediction).
 */
final class ClassScores {
  private ClassScores() {}

  /** The classes a model of {@code loss} with {@code outputs} outputs per example tells apart. */
  static int classes(LossKind loss, int outputs) {
    return loss == LossKind.BINARY ? 2 : outputs;
  }

  /** Row {@code row}'s rawPrediction from {@code outputs} ({@code width} per row) of a model of {@code loss}. */
  static double[] raw(float[] outputs, int row, int width, LossKind loss) {
    if (loss == LossKind.BINARY) {
      return new double[] {0, outputs[row]};
    }
    double[] raw = new double[width];
    for (int c = 0; c < width; c++) {
      raw[c] = outputs[row * width + c];
    }
    if (width == 2) {
      raw[1] -= raw[0];
      raw[0] = 0;
    }
    return raw;
  }

  /** softmax of {@code raw}, written over it (shifted by the largest score so exp never overflows). */
  static double[] softmaxInPlace(double[] raw) {
    double max = Double.NEGATIVE_INFINITY;
    for (double v : raw) {
      max = Math.max(max, v);
    }
    double sum = 0;
    for (int c = 0; c < raw.length; c++) {
      raw[c] = Math.exp(raw[c] - max);
      sum += raw[c];
    }
    for (int c = 0; c < raw.length; c++) {
      raw[c] /= sum;
    }
    return raw;
  }

  /**
   * Spark's rule: without thresholds the class of the largest raw score; with them the class of the largest
   * probability / threshold, a threshold of 0 counting as infinitely large. Ties go to the lower class.
   */
  static double prediction(double[] raw, double[] thresholds) {
    if (thresholds == null) {
      return argmax(raw);
    }
    double[] scaled = softmaxInPlace(raw.clone());
    for (int c = 0; c < scaled.length; c++) {
      scaled[c] = thresholds[c] == 0 ? Double.POSITIVE_INFINITY : scaled[c] / thresholds[c];
    }
    return argmax(scaled);
  }

  private static int argmax(double[] values) {
    int best = 0;
    for (int c = 1; c < values.length; c++) {
      if (values[c] > values[best]) {
        best = c;
      }
    }
    return best;
  }
}
