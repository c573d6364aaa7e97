package io.dssync.data;

import io.dssync.errors.DataErrors;
import java.io.Serializable;
import java.util.List;

/**
 * Examples as flat arrays: {@code features} row-major with {@code featureSize} floats per example,
 * {@code labels} row-major with {@link Labels#width} floats per example (a class index, or real values).
 * The compact form replicas train on.
 */
public record LabeledArrays(float[] features, float[] labels, int featureSize, Labels labelSpec)
    implements Serializable {
  public LabeledArrays {
    long examples = labels.length / labelSpec.width();
    if (labels.length % labelSpec.width() != 0) {
      throw DataErrors.lengthMismatch("labels of width " + labelSpec.width(), (int) (examples * labelSpec.width()),
          labels.length);
    }
    if (features.length != examples * featureSize) {
      throw DataErrors.lengthMismatch("features of " + examples + " examples", (int) (examples * featureSize),
          features.length);
    }
  }

  /** Examples with one class index each. */
  public LabeledArrays(float[] features, int[] classes, int featureSize, int numClasses) {
    this(features, classLabels(classes), featureSize, Labels.classes(numClasses));
  }

  public int size() {
    return labels.length / labelSpec.width();
  }

  /** Floats per label. */
  public int labelWidth() {
    return labelSpec.width();
  }

  /** Classes of a class task, 0 for real-valued labels. */
  public int numClasses() {
    return labelSpec.numClasses();
  }

  /** The first {@code n} examples (a copy). */
  public LabeledArrays head(int n) {
    int m = Math.min(n, size());
    return HeapArrays.firstExamples(this, m, "the first " + m + " examples");
  }

  /** The labels of class indices as floats (exact up to 2^24). */
  public static float[] classLabels(int[] classes) {
    float[] out = new float[classes.length];
    for (int i = 0; i < classes.length; i++) {
      out[i] = classes[i];
    }
    return out;
  }

  /** The examples of {@code parts} one after the other (at least one part; all of one feature size). */
  public static LabeledArrays concat(List<LabeledArrays> parts) {
    LabeledArrays first = parts.get(0);
    int d = first.featureSize();
    int w = first.labelWidth();
    int n = 0;
    for (LabeledArrays p : parts) {
      n += p.size();
    }
    float[] f = HeapArrays.floats((long) n * d, n + " examples joined from " + parts.size() + " parts");
    float[] l = HeapArrays.floats((long) n * w, n + " examples joined from " + parts.size() + " parts");
    int at = 0;
    for (LabeledArrays p : parts) {
      if (p.featureSize() != d) {
        throw DataErrors.lengthMismatch("features per example", d, p.featureSize());
      }
      if (p.labelWidth() != w) {
        throw DataErrors.lengthMismatch("label values per example", w, p.labelWidth());
      }
      System.arraycopy(p.features(), 0, f, at * d, p.size() * d);
      System.arraycopy(p.labels(), 0, l, at * w, p.size() * w);
      at += p.size();
    }
    return new LabeledArrays(f, l, d, first.labelSpec());
  }

  /** The examples at {@code indices}, in that order (a copy). */
  public LabeledArrays select(int[] indices, int count, String what) {
    int d = featureSize;
    int w = labelWidth();
    float[] f = HeapArrays.floats((long) count * d, what);
    float[] l = HeapArrays.floats((long) count * w, what);
    for (int k = 0; k < count; k++) {
      int i = indices[k];
      System.arraycopy(features, i * d, f, k * d, d);
      System.arraycopy(labels, i * w, l, k * w, w);
    }
    return new LabeledArrays(f, l, d, labelSpec);
  }
}
