package io.dssync.replica;

import java.util.Arrays;
import java.util.Comparator;

/** Area under the ROC curve of scores against 0/1 labels (Mann-Whitney U; ties count half). */
final class Auc {
  private Auc() {}

  /** The AUC, or NaN when one of the two classes is absent (the curve is undefined then). */
  public static double of(float[] scores, float[] labels, int count) {
    Integer[] order = new Integer[count];
    for (int i = 0; i < count; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble(i -> scores[i]));
    long positives = 0;
    double positiveRankSum = 0;
    int i = 0;
    while (i < count) {
      // Tied scores share the mean of their ranks (1-based).
      int j = i;
      while (j + 1 < count && scores[order[j + 1]] == scores[order[i]]) {
        j++;
      }
      double meanRank = (i + j) / 2.0 + 1;
      for (int k = i; k <= j; k++) {
        if (labels[order[k]] == 1f) {
          positives++;
          positiveRankSum += meanRank;
        }
      }
      i = j + 1;
    }
    long negatives = count - positives;
    if (positives == 0 || negatives == 0) {
      return Double.NaN;
    }
    return (positiveRankSum - positives * (positives + 1) / 2.0) / ((double) positives * negatives);
  }
}
