package io.dssync.ml;

import io.dssync.errors.DataErrors;
import org.apache.spark.ml.linalg.Vector;

/** Reads one row's features column (an ml Vector or an array of numbers) as floats. */
final class FeatureValues {
  private FeatureValues() {}

  /** Copies the {@code size} values of {@code value} into {@code dst} from {@code offset}. */
  static void copy(Object value, float[] dst, int offset, int size) {
    if (value instanceof Vector v) {
      check(v.size(), size);
      for (int j = 0; j < size; j++) {
        dst[offset + j] = (float) v.apply(j);
      }
    } else if (value instanceof scala.collection.Seq<?> seq) {
      check(seq.size(), size);
      for (int j = 0; j < size; j++) {
        dst[offset + j] = ((Number) seq.apply(j)).floatValue();
      }
    } else {
      throw DataErrors.badRecord("in the features column", "value " + value + " is not a vector or an array",
          "Assemble the features into one vector column (e.g. with VectorAssembler)");
    }
  }

  private static void check(int actual, int expected) {
    if (actual != expected) {
      throw DataErrors.badRecord("in the features column", "a row has " + actual + " features, the model expects "
          + expected, "Transform data shaped like the training data");
    }
  }
}
