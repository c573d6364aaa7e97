package io.dssync.data.frame;

import io.dssync.data.HeapArrays;
import io.dssync.data.LabeledArrays;
import io.dssync.data.Labels;
import io.dssync.data.ScalaSeqs;
import io.dssync.errors.DataErrors;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;

/** Validates one row's features and label at a time and appends them to growing arrays. */
final class RowPacker {
  private final int featureSize;
  private final Labels labelSpec;
  private final String where;
  private float[] features;
  private float[] labels;
  private int size;
  /** Row number of index 0 in error messages (see {@link #restartAt}). */
  private int firstRow;

  RowPacker(int featureSize, Labels labelSpec, String where) {
    this.featureSize = featureSize;
    this.labelSpec = labelSpec;
    this.where = where;
    this.labels = new float[16 * labelSpec.width()];
    this.features = new float[16 * featureSize];
  }

  int size() {
    return size;
  }

  void add(Object featureValue, Object labelValue) {
    int w = labelSpec.width();
    if (size * w == labels.length) {
      String what = size * 2 + " examples " + where;
      float[] moreLabels = HeapArrays.floats(size * 2L * w, what);
      System.arraycopy(labels, 0, moreLabels, 0, size * w);
      labels = moreLabels;
      float[] moreFeatures = HeapArrays.floats(size * 2L * featureSize, what);
      System.arraycopy(features, 0, moreFeatures, 0, size * featureSize);
      features = moreFeatures;
    }
    label(labelValue, size * w);
    int offset = size * featureSize;
    if (featureValue == null) {
      throw bad("features are null", "Drop or fill rows with missing features");
    } else if (featureValue instanceof DenseVector dense) {
      checkLength(dense.size());
      copyDense(dense.values(), offset);
    } else if (featureValue instanceof SparseVector sparse) {
      checkLength(sparse.size());
      Arrays.fill(features, offset, offset + featureSize, 0f);
      int[] indices = sparse.indices();
      double[] values = sparse.values();
      for (int k = 0; k < indices.length; k++) {
        features[offset + indices[k]] = finite(values[k], indices[k]);
      }
    } else if (featureValue instanceof scala.collection.Seq<?> seq) {
      copyList(ScalaSeqs.asList(seq), offset);
    } else if (featureValue instanceof List<?> list) {
      copyList(list, offset);
    } else {
      throw bad("features have type " + featureValue.getClass().getName()
          + ", not an ml Vector or an array of numbers", "Assemble the features into a vector");
    }
    size++;
  }

  /**
   * Forgets the rows packed so far, keeping the arrays, and numbers the next row {@code row} in
   * error messages: validates a stream one row at a time without growing.
   */
  void restartAt(int row) {
    size = 0;
    firstRow = row;
  }

  LabeledArrays result() {
    return HeapArrays.firstExamples(features, labels, size, featureSize, labelSpec, size + " examples " + where);
  }

  /** Writes the label of the row into {@code labels} from {@code offset}: a number, or a vector or array of them. */
  private void label(Object value, int offset) {
    if (value == null) {
      throw bad("the label is null", "Drop or fill rows with missing labels");
    }
    if (value instanceof Number number) {
      checkLabelLength(1);
      labels[offset] = labelValue(number.doubleValue(), 0);
    } else if (value instanceof org.apache.spark.ml.linalg.Vector vector) {
      checkLabelLength(vector.size());
      for (int j = 0; j < vector.size(); j++) {
        labels[offset + j] = labelValue(vector.apply(j), j);
      }
    } else if (value instanceof scala.collection.Seq<?> seq) {
      labelList(ScalaSeqs.asList(seq), offset);
    } else if (value instanceof List<?> list) {
      labelList(list, offset);
    } else {
      throw bad("the label " + value + " is a " + value.getClass().getSimpleName()
          + ", not a number", labelSpec.isClasses() ? labelSpec.fix() : "Give labels as numbers or vectors");
    }
  }

  private void labelList(List<?> values, int offset) {
    checkLabelLength(values.size());
    for (int j = 0; j < values.size(); j++) {
      if (!(values.get(j) instanceof Number number)) {
        throw bad("label value " + j + " is " + (values.get(j) == null ? "null" : "not a number"),
            "Drop or fill rows with missing labels");
      }
      labels[offset + j] = labelValue(number.doubleValue(), j);
    }
  }

  private void checkLabelLength(int actual) {
    if (actual != labelSpec.width()) {
      throw bad("the label has " + actual + " values but " + labelSpec.width() + " were expected",
          labelSpec.width() == 1 ? "Give one number per row as the label"
              : "Give every row a label of " + labelSpec.width() + " values");
    }
  }

  private float labelValue(double value, int index) {
    String problem = labelSpec.problem(value, index);
    if (problem != null) {
      throw bad(problem, labelSpec.fix());
    }
    return (float) value;
  }

  private void checkLength(int actual) {
    if (actual != featureSize) {
      throw bad("features have length " + actual + " but " + featureSize + " was expected",
          "Give every row " + featureSize + " features or set the feature size to match");
    }
  }

  private void copyDense(double[] values, int offset) {
    for (int j = 0; j < featureSize; j++) {
      features[offset + j] = finite(values[j], j);
    }
  }

  private void copyList(List<?> values, int offset) {
    checkLength(values.size());
    for (int j = 0; j < featureSize; j++) {
      Object v = values.get(j);
      if (!(v instanceof Number number)) {
        String what = v == null ? "null" : "a " + v.getClass().getSimpleName();
        throw bad("feature " + j + " is " + what, "Drop or fill rows with missing features");
      }
      features[offset + j] = finite(number.doubleValue(), j);
    }
  }

  private float finite(double value, int index) {
    float f = (float) value;
    // Checked after narrowing: a double beyond float range becomes infinite in training too.
    if (!Float.isFinite(f)) {
      throw bad(notFinite(index, value), NOT_FINITE_FIX);
    }
    return f;
  }

  /**
   * Checks examples already packed (the in-memory path of {@link ShardedData}) as {@link #add}
   * checks rows: labels that fit the label spec and finite features. {@code rowOf} maps an example's
   * index to the row number the error names.
   */
  static void check(LabeledArrays examples, String where, IntToLongFunction rowOf) {
    int d = examples.featureSize();
    Labels spec = examples.labelSpec();
    int w = spec.width();
    float[] features = examples.features();
    for (int k = 0; k < examples.size(); k++) {
      for (int j = 0; j < w; j++) {
        String problem = spec.problem(examples.labels()[k * w + j], j);
        if (problem != null) {
          throw DataErrors.badRecord(where + ", row " + rowOf.applyAsLong(k), problem, spec.fix());
        }
      }
      for (int j = 0, at = k * d; j < d; j++, at++) {
        if (!Float.isFinite(features[at])) {
          throw DataErrors.badRecord(where + ", row " + rowOf.applyAsLong(k), notFinite(j, features[at]),
              NOT_FINITE_FIX);
        }
      }
    }
  }

  private static final String NOT_FINITE_FIX = "Drop or repair rows with NaN or infinite features";

  private static String notFinite(int index, double value) {
    return "feature " + index + " is " + value + " (not finite as a float)";
  }

  private RuntimeException bad(String problem, String fix) {
    return DataErrors.badRecord(where + ", row " + (firstRow + size), problem, fix);
  }
}
