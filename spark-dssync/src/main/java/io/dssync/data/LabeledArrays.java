package io.dssync.data;

import io.dssync.errors.Errors;
import java.io.Serializable;
import java.util.List;

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
    return HeapArrays.firstExamples(features, labels, m, featureSize, numClasses, "the first " + m + " examples");
  }

  /** The examples of {@code parts} one after the other (at least one part; all of one feature size). */
  public static LabeledArrays concat(List<LabeledArrays> parts) {
    LabeledArrays first = parts.get(0);
    int d = first.featureSize();
    int n = 0;
    for (LabeledArrays p : parts) {
      n += p.size();
    }
    float[] f = HeapArrays.floats((long) n * d, n + " examples joined from " + parts.size() + " parts");
    int[] l = HeapArrays.ints(n, n + " examples joined from " + parts.size() + " parts");
    int at = 0;
    for (LabeledArrays p : parts) {
      if (p.featureSize() != d) {
        throw Errors.lengthMismatch("features per example", d, p.featureSize());
      }
      System.arraycopy(p.features(), 0, f, at * d, p.size() * d);
      System.arraycopy(p.labels(), 0, l, at, p.size());
      at += p.size();
    }
    return new LabeledArrays(f, l, d, first.numClasses());
  }
}
