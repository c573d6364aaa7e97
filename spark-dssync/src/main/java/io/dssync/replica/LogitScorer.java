package io.dssync.replica;

import java.util.Arrays;

/**
 * Scores 0/1 targets against logits, one per (example, label): the mean loss per example, the accuracy at
 * logit 0 (probability 0.5) over all pairs, and the AUC over all pairs (micro-averaged for several labels).
 * Binary models have one pair per example, multi-label models one per label.
 */
final class LogitScorer implements Objective.Scorer {
  private final Objective objective;
  private final String metricName;
  private float[] scores = new float[1024];
  private float[] labels = new float[1024];
  private int count;
  private long examples;
  private double lossSum;
  private long correct;

  LogitScorer(Objective objective, String metricName) {
    this.objective = objective;
    this.metricName = metricName;
  }

  @Override
  public void add(ModelOutput out) {
    int w = out.spec().labelWidth();
    lossSum += objective.loss(out).getFloat() * (double) out.n();
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
      return new Evaluation(0, 0, 0, metricName, Double.NaN);
    }
    return new Evaluation(lossSum / examples, (double) correct / count, examples, metricName,
        Auc.of(scores, labels, count));
  }
}
