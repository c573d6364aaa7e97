package io.dssync.ml;

import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import java.util.Arrays;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * What {@link DsSyncClassifier} and {@link DsSyncRegressor} read of their input the same way: a named column, the
 * feature size, and the validation rows a {@code validationIndicatorCol} marks.
 */
final class FitInput {
  private FitInput() {}

  /** The column {@code param} names; an absent one fails naming the param and the columns there are. */
  static StructField field(StructType schema, String param, String column) {
    if (!Arrays.asList(schema.fieldNames()).contains(column)) {
      throw Errors.invalidSetting(param, column, "the input has no column '" + column + "'; its columns are "
          + Arrays.toString(schema.fieldNames()), "Set " + param + " to one of those columns.");
    }
    return schema.apply(column);
  }

  /**
   * Checks that at most one of the two validation params is set and that an indicator column is boolean; what a
   * Pipeline checks of every stage before it fits any.
   */
  static void checkValidation(StructType schema, String indicator, double fraction) {
    if (indicator.isEmpty()) {
      return;
    }
    if (fraction > 0) {
      throw Errors.invalidSetting("validationIndicatorCol", indicator, "validationFraction is " + fraction
          + " too; the validation rows come from one of them",
          "Set validationFraction to 0 or validationIndicatorCol to \"\".");
    }
    StructField field = field(schema, "validationIndicatorCol", indicator);
    if (!(field.dataType() instanceof BooleanType)) {
      throw Errors.invalidSetting("validationIndicatorCol", indicator, "column '" + indicator + "' has type "
          + field.dataType().simpleString() + ", not boolean", "Use a boolean column: true for validation rows.");
    }
  }

  /** True for the validation rows; null is not true, so such a row trains, as in Spark's own estimators. */
  static Column validates(String indicator) {
    return functions.coalesce(functions.col(indicator), functions.lit(false));
  }

  /** From the vector size in the column metadata (VectorAssembler writes it), else the first row. */
  static int featureSize(Dataset<Row> frame, String featuresCol) {
    StructField column = frame.schema().apply(featuresCol);
    // Only a vector column has such metadata; Spark's reader of it fails a bare "requirement failed" on an array.
    int fromMetadata = column.dataType().equals(SQLDataTypes.VectorType())
        ? AttributeGroup.fromStructField(column).size() : -1;
    if (fromMetadata > 0) {
      return fromMetadata;
    }
    return size(firstRow(frame.select(featuresCol)).get(0));
  }

  /** Values in one row's vector or array. */
  static int size(Object value) {
    return value instanceof Vector v ? v.size() : ((scala.collection.Seq<?>) value).size();
  }

  static Row firstRow(Dataset<Row> column) {
    Row[] first = (Row[]) column.limit(1).collect();
    if (first.length == 0) {
      throw DataErrors.badRecord("in the training input", "it has no rows", "Fit on a non-empty DataFrame");
    }
    return first[0];
  }
}
