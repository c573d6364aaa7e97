package io.dssync.data.table;

import io.dssync.data.ScalaSeqs;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;

/**
 * Turns one selected row (features columns, label, optional indicator; see {@link ColumnPlan}) into
 * an {@link Example}, or throws a {@link BadRow} for null, NaN or infinite values. Values must be
 * finite as floats, as the replicas hold them.
 */
final class RowReader implements Serializable {
  /** Token ids a float holds exactly: every integer up to 2^24. */
  static final int LARGEST_EXACT_ID = 1 << 24;
  static final String FEATURES_FIX = "Drop or repair such rows, or skip them with --bad-records skip";
  static final String LABEL_FIX = "Drop or fill rows with missing labels, or skip them with --bad-records skip";

  /** One example: features and their {@code channels x height x width}, and the label's values. */
  record Example(double[] features, int channels, int height, int width, double[] label) {}

  private final ColumnPlan plan;

  RowReader(ColumnPlan plan) {
    this.plan = plan;
  }

  Example read(Row row) {
    double[] label = label(row.get(plan.labelIndex()));
    if (plan.indicatorName != null && row.isNullAt(plan.indicatorIndex())) {
      throw new BadRow("the validation indicator '" + plan.indicatorName + "' is null",
          "Set it to true or false on every row");
    }
    if (plan.features == ColumnPlan.Features.IMAGE) {
      Row image = (Row) row.get(0);
      if (image == null) {
        throw new BadRow("the image is null", FEATURES_FIX);
      }
      int[] shape = ImagePixels.shape(image, plan.imageFields);
      return new Example(ImagePixels.decode(image, plan.imageFields), shape[0], shape[1], shape[2], label);
    }
    double[] features = features(row);
    return new Example(features, 1, 1, features.length, label);
  }

  /** Whether the indicator marks this (already read) row for validation. */
  boolean validationRow(Row row) {
    return row.getBoolean(plan.indicatorIndex());
  }

  /** Where a row is, for messages: its position, and for an image its file. */
  String where(Row row, int partition, long index) {
    String at = "input partition " + partition + ", row " + index;
    if (plan.features == ColumnPlan.Features.IMAGE && row.get(0) instanceof Row image) {
      return at + " (image " + ImagePixels.origin(image, plan.imageFields) + ")";
    }
    return at;
  }

  private double[] features(Row row) {
    switch (plan.features) {
      case NUMBERS: {
        double[] out = new double[plan.featureColumns];
        for (int i = 0; i < out.length; i++) {
          Object v = row.get(i);
          if (v == null) {
            throw new BadRow("feature column '" + plan.featureNames.get(i) + "' is null", FEATURES_FIX);
          }
          out[i] = finiteFeature(((Number) v).doubleValue(), i);
        }
        return out;
      }
      case VECTOR: {
        Vector v = (Vector) row.get(0);
        if (v == null) {
          throw new BadRow("the features are null", FEATURES_FIX);
        }
        double[] out = v.toArray(); // a copy for a dense vector too; sparse becomes dense
        for (int j = 0; j < out.length; j++) {
          finiteFeature(out[j], j);
        }
        return out;
      }
      default: {
        if (row.isNullAt(0)) {
          throw new BadRow("the features are null", FEATURES_FIX);
        }
        List<Object> values = row.getList(0);
        double[] out = new double[values.size()];
        boolean ids = plan.features == ColumnPlan.Features.ID_ARRAY;
        for (int j = 0; j < out.length; j++) {
          Object v = values.get(j);
          if (v == null) {
            throw new BadRow("feature " + j + " is null", FEATURES_FIX);
          }
          out[j] = ids ? tokenId(((Number) v).longValue(), j) : finiteFeature(((Number) v).doubleValue(), j);
        }
        return out;
      }
    }
  }

  private double[] label(Object value) {
    if (value == null) {
      throw new BadRow("the label is null", LABEL_FIX);
    }
    if (value instanceof Number n) {
      return new double[] {finiteLabel(n.doubleValue(), -1)};
    }
    double[] out;
    if (value instanceof Vector v) {
      out = v.toArray();
    } else {
      List<?> values = value instanceof List<?> list ? list
          : ScalaSeqs.asList((scala.collection.Seq<?>) value);
      out = new double[values.size()];
      for (int j = 0; j < out.length; j++) {
        if (values.get(j) == null) {
          throw new BadRow("label value " + j + " is null", LABEL_FIX);
        }
        out[j] = ((Number) values.get(j)).doubleValue();
      }
    }
    if (out.length == 0) {
      throw new BadRow("the label has no values", LABEL_FIX);
    }
    for (int j = 0; j < out.length; j++) {
      finiteLabel(out[j], j);
    }
    return out;
  }

  private static double finiteFeature(double value, int index) {
    if (!Float.isFinite((float) value)) {
      throw new BadRow("feature " + index + " is " + value + " (not finite as a float)", FEATURES_FIX);
    }
    return value;
  }

  private static double finiteLabel(double value, int index) {
    if (!Float.isFinite((float) value)) {
      throw new BadRow((index < 0 ? "the label" : "label value " + index) + " is " + value
          + " (not finite as a float)", LABEL_FIX);
    }
    return value;
  }

  private static double tokenId(long id, int index) {
    if (id < 0 || id > LARGEST_EXACT_ID) {
      throw new BadRow("token id " + id + " at position " + index + " is not in 0.." + LARGEST_EXACT_ID
          + ", the integers a float holds exactly", "Map the ids into 0.." + LARGEST_EXACT_ID
          + " (e.g. re-index the vocabulary), or skip such rows with --bad-records skip");
    }
    return id;
  }
}
