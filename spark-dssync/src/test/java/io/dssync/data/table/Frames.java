package io.dssync.data.table;

import io.dssync.data.LabeledArrays;
import io.dssync.data.frame.DataFrames;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Building small DataFrames and reading loaded tables back, for the table tests. */
final class Frames {
  private Frames() {}

  /** A frame of {@code rows} with columns named and typed by {@code nameTypePairs}: "a", IntegerType, ... */
  static Dataset<Row> of(SparkSession spark, List<Row> rows, Object... nameTypePairs) {
    StructField[] fields = new StructField[nameTypePairs.length / 2];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = DataTypes.createStructField((String) nameTypePairs[2 * i], (DataType) nameTypePairs[2 * i + 1], true);
    }
    return spark.createDataFrame(rows, new StructType(fields));
  }

  /** Real examples as a {@code (features vector, label double)} frame in one partition (their order kept). */
  static Dataset<Row> examples(SparkSession spark, LabeledArrays data) {
    return DataFrames.toDataFrame(spark, data, 1);
  }

  /** The features of every row of a loaded table, in its order. */
  static List<double[]> features(LoadedTable table) {
    List<double[]> out = new ArrayList<>();
    for (Row r : table.frame().collectAsList()) {
      out.add(((Vector) r.get(0)).toArray());
    }
    return out;
  }

  /** The labels of every row: a double, or a vector's values. */
  static List<double[]> labels(LoadedTable table) {
    List<double[]> out = new ArrayList<>();
    for (Row r : table.frame().collectAsList()) {
      out.add(r.get(1) instanceof Vector v ? v.toArray() : new double[] {r.getDouble(1)});
    }
    return out;
  }

  /** Example {@code i}'s features of {@code data} widened to doubles. */
  static double[] row(LabeledArrays data, int i) {
    int d = data.featureSize();
    double[] out = new double[d];
    for (int j = 0; j < d; j++) {
      out[j] = data.features()[i * d + j];
    }
    return out;
  }

  /** {@code values} narrowed to floats, as replicas hold them: what round trips are compared on. */
  static float[] floats(double[] values) {
    float[] out = new float[values.length];
    for (int j = 0; j < values.length; j++) {
      out[j] = (float) values[j];
    }
    return out;
  }

  static String text(double[] values) {
    return Arrays.toString(values);
  }
}
