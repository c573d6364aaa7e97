package io.dssync.data;

import io.dssync.errors.Errors;
import java.io.Serializable;

/**
 * Examples as flat arrays: {@code features} row-major with {@code featureSize} floats per example,
 * {@code labels} class indices in 0..numClasses-1. The compact form replicas train on.
 */
public record LabeledArrays(float[] features, int[] labels, int featureSize, int numClasses)
    implements Serializable {
  public LabeledArrays {
    if (features.length != (long) labels.length * featureSize) {
      throw Errors.lengthMismatch("features of " + labels.length + " examples",
          labels.length * featureSize, features.length);
    }
  }

  public int size() {
    return labels.length;
  }

  /** The first {@code n} examples (a copy). */
  public LabeledArrays head(int n) {
    int m = Math.min(n, size());
    float[] f = new float[m * featureSize];
    System.arraycopy(features, 0, f, 0, f.length);
    int[] l = new int[m];
    System.arraycopy(labels, 0, l, 0, m);
    return new LabeledArrays(f, l, featureSize, numClasses);
  }
}
