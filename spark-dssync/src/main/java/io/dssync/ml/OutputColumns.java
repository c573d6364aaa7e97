package io.dssync.ml;

import io.dssync.errors.Errors;
import java.util.Arrays;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.VectorUDT;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;

/**
 * The schema a fitted model produces: the input plus prediction (double), probability (Vector) and
 * rawPrediction (Vector of per-class raw scores, see {@link ClassScores}).
 */
final class OutputColumns {
  private OutputColumns() {}

  /** Checks the features column and appends the output columns whose names are not empty. */
  static StructType append(StructType schema, String featuresCol, String predictionCol, String probabilityCol,
      String rawPredictionCol) {
    if (!Arrays.asList(schema.fieldNames()).contains(featuresCol)) {
      throw Errors.invalidSetting("featuresCol", featuresCol, "the input has no column '" + featuresCol
          + "'; its columns are " + Arrays.toString(schema.fieldNames()), "Set featuresCol to one of those columns.");
    }
    DataType type = schema.apply(featuresCol).dataType();
    if (!(type instanceof VectorUDT)
        && !(type instanceof ArrayType a && a.elementType() instanceof NumericType)) {
      throw Errors.invalidSetting("featuresCol", featuresCol, "column '" + featuresCol + "' has type "
          + type.simpleString() + ", not a vector or an array of numbers",
          "Assemble the features into one column (e.g. with VectorAssembler).");
    }
    StructType out = schema;
    if (!predictionCol.isEmpty()) {
      out = out.add(requireNew(out, "predictionCol", predictionCol), DataTypes.DoubleType, false);
    }
    if (!probabilityCol.isEmpty()) {
      out = out.add(requireNew(out, "probabilityCol", probabilityCol), SQLDataTypes.VectorType(), false);
    }
    if (!rawPredictionCol.isEmpty()) {
      out = out.add(requireNew(out, "rawPredictionCol", rawPredictionCol), SQLDataTypes.VectorType(), false);
    }
    return out;
  }

  private static String requireNew(StructType schema, String param, String column) {
    if (Arrays.asList(schema.fieldNames()).contains(column)) {
      throw Errors.invalidSetting(param, column, "the input already has a column '" + column + "'",
          "Set " + param + " to a new column name (or drop the old column).");
    }
    return column;
  }
}
