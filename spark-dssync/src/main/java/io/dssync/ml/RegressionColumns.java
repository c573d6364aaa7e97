package io.dssync.ml;

import io.dssync.errors.Errors;
import java.util.Arrays;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The schema a fitted regression produces: the input plus the prediction, a double for one output and a Vector
 * for several (Spark's RegressionEvaluator reads the double).
 */
final class RegressionColumns {
  private RegressionColumns() {}

  /**
   * Checks the features column (as {@link OutputColumns} does) and appends {@code predictionCol} unless empty;
   * {@code outputs} is the number of outputs, or -1 when unknown before the data is read (then a Vector).
   */
  static StructType append(StructType schema, String featuresCol, String predictionCol, int outputs) {
    OutputColumns.append(schema, featuresCol, "", "", "");
    if (predictionCol.isEmpty()) {
      return schema;
    }
    if (Arrays.asList(schema.fieldNames()).contains(predictionCol)) {
      throw Errors.invalidSetting("predictionCol", predictionCol, "the input already has a column '" + predictionCol
          + "'", "Set predictionCol to a new column name (or drop the old column).");
    }
    return schema.add(predictionCol, outputs == 1 ? DataTypes.DoubleType : SQLDataTypes.VectorType(), false);
  }
}
