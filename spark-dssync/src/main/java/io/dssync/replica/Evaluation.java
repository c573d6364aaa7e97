package io.dssync.replica;

import java.io.Serializable;

/** Mean loss and accuracy over {@code count} examples. */
public record Evaluation(double loss, double accuracy, long count) implements Serializable {
  /** Count-weighted combination of two evaluations. */
  public Evaluation merge(Evaluation other) {
    long n = count + other.count;
    if (n == 0) {
      return this;
    }
    return new Evaluation(
        (loss * count + other.loss * other.count) / n,
        (accuracy * count + other.accuracy * other.count) / n,
        n);
  }
}
