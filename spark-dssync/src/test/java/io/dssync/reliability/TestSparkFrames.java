package io.dssync.reliability;

import io.dssync.data.LabeledArrays;
import io.dssync.data.frame.DataFrames;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** DataFrames of (features, label) from arrays, for tests with synthetic shapes. */
final class TestSparkFrames {
  private TestSparkFrames() {}

  static Dataset<Row> of(SparkSession spark, LabeledArrays data, int slices) {
    return DataFrames.toDataFrame(spark, data, slices);
  }
}
