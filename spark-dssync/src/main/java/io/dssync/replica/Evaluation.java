package io.dssync.replica;

import io.dssync.models.LossKind;
import java.io.Serializable;

/**
 * Mean loss, accuracy and the task's metric over {@code count} examples. For classifiers the
 * metric is the accuracy; for masked-LM both are the masked-token accuracy (loss per masked
 * token); for binary models the metric is the AUC and the accuracy thresholds at 0.5.
 */
public record Evaluation(double loss, double accuracy, long count, String metricName, double metric)
    implements Serializable {
  /** A classifier's evaluation: the metric is the accuracy. */
  public Evaluation(double loss, double accuracy, long count) {
    this(loss, accuracy, count, LossKind.CLASSIFICATION.metricName(), accuracy);
  }

  /**
   * Count-weighted combination of two evaluations. Exact for loss and accuracy; for AUC it is only
   * an approximation, so evaluate a whole set in one call when the AUC matters.
   */
  public Evaluation merge(Evaluation other) {
    long n = count + other.count;
    if (n == 0) {
      return this;
    }
    if (count == 0) {
      return other;
    }
    if (!metricName.equals(other.metricName)) {
      throw new IllegalArgumentException("cannot merge a " + metricName + " evaluation with a "
          + other.metricName + " one");
    }
    return new Evaluation(
        (loss * count + other.loss * other.count) / n,
        (accuracy * count + other.accuracy * other.count) / n,
        n,
        metricName,
        (metric * count + other.metric * other.count) / n);
  }
}
