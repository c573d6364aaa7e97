package io.dssync.data;

import io.dssync.errors.Errors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.VectorUDT;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The bridge between Spark DataFrames of {@code (features, label)} rows and the compact
 * {@link LabeledArrays} replicas train on. Rows are validated one by one so a bad record fails
 * the job with its partition, position and problem instead of surfacing later as a NaN loss.
 */
public final class DataFrames {
  public static final String FEATURES = "features";
  public static final String LABEL = "label";

  private DataFrames() {}

  /**
   * A DataFrame with columns {@code features} (dense ml Vector) and {@code label} (double), in
   * {@code numSlices} partitions that keep the input's order. Rows are built on the executors from
   * float slices, which ship half the bytes of ready-made double vectors.
   */
  public static Dataset<Row> toDataFrame(SparkSession spark, LabeledArrays data, int numSlices) {
    if (numSlices < 1) {
      throw Errors.invalidSetting("numSlices", numSlices, "must be at least 1",
          "Pass the number of partitions wanted, e.g. the number of workers.");
    }
    List<LabeledArrays> slices = slices(data, numSlices);
    JavaRDD<Row> rows = JavaSparkContext.fromSparkContext(spark.sparkContext())
        .parallelize(slices, slices.size())
        .mapPartitions(DataFrames::rowsOf, true);
    StructType schema = new StructType(new StructField[] {
        DataTypes.createStructField(FEATURES, SQLDataTypes.VectorType(), false),
        DataTypes.createStructField(LABEL, DataTypes.DoubleType, false)});
    return spark.createDataFrame(rows, schema);
  }

  /**
   * Validates rows and packs them into {@link LabeledArrays}. Features may be an ml Vector (dense
   * or sparse) or an array of numbers; labels any number holding an integer in
   * 0..numClasses-1. Fails on the first bad row, naming {@code where} (e.g. "in partition 3"), the
   * row's position in {@code rows} and the problem; an empty iterator is an error too, because
   * every worker needs at least one example.
   */
  public static LabeledArrays collect(Iterator<Row> rows, int featuresIndex, int labelIndex,
      int featureSize, int numClasses, String where) {
    RowPacker packer = new RowPacker(featureSize, numClasses, where);
    while (rows.hasNext()) {
      Row row = rows.next();
      packer.add(row.get(featuresIndex), row.get(labelIndex));
    }
    if (packer.size() == 0) {
      throw Errors.badRecord(where, "it is empty: fewer examples than workers",
          "Use fewer workers or more data");
    }
    return packer.result();
  }

  /**
   * Fails unless {@code schema} has both columns with usable types: features an ml Vector or an
   * array of numbers, label numeric. The message lists the columns present.
   */
  public static void requireColumns(StructType schema, String featuresCol, String labelCol) {
    DataType features = typeOf(schema, "featuresCol", featuresCol);
    DataType label = typeOf(schema, "labelCol", labelCol);
    boolean vector = features instanceof VectorUDT;
    boolean numericArray = features instanceof ArrayType array
        && array.elementType() instanceof NumericType;
    if (!vector && !numericArray) {
      throw Errors.invalidSetting("featuresCol", featuresCol, "column '" + featuresCol
          + "' has type " + features.simpleString() + ", not a vector or an array of numbers",
          "Assemble the features into one column (e.g. with VectorAssembler).");
    }
    if (!(label instanceof NumericType)) {
      throw Errors.invalidSetting("labelCol", labelCol, "column '" + labelCol + "' has type "
          + label.simpleString() + ", not a number",
          "Index string labels first (e.g. with StringIndexer).");
    }
  }

  private static DataType typeOf(StructType schema, String setting, String column) {
    for (StructField field : schema.fields()) {
      if (field.name().equals(column)) {
        return field.dataType();
      }
    }
    throw Errors.invalidSetting(setting, column, "the input has no column '" + column
        + "'; its columns are " + Arrays.toString(schema.fieldNames()),
        "Set " + setting + " to one of those columns.");
  }

  /** Splits into at most {@code numSlices} contiguous copies, sizes differing by at most one. */
  static List<LabeledArrays> slices(LabeledArrays data, int numSlices) {
    int n = data.size();
    int f = data.featureSize();
    List<LabeledArrays> slices = new ArrayList<>(numSlices);
    for (int s = 0; s < numSlices; s++) {
      int from = (int) ((long) n * s / numSlices);
      int to = (int) ((long) n * (s + 1) / numSlices);
      slices.add(new LabeledArrays(
          Arrays.copyOfRange(data.features(), from * f, to * f),
          Arrays.copyOfRange(data.labels(), from, to), f, data.numClasses()));
    }
    return slices;
  }

  private static Iterator<Row> rowsOf(Iterator<LabeledArrays> slices) {
    if (!slices.hasNext()) {
      return Collections.emptyIterator();
    }
    LabeledArrays slice = slices.next();
    int f = slice.featureSize();
    return new Iterator<>() {
      private int i;

      @Override
      public boolean hasNext() {
        return i < slice.size();
      }

      @Override
      public Row next() {
        double[] values = new double[f];
        for (int j = 0; j < f; j++) {
          values[j] = slice.features()[i * f + j];
        }
        return RowFactory.create(Vectors.dense(values), (double) slice.labels()[i++]);
      }
    };
  }
}
