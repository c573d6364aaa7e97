package io.dssync.data.frame;

import io.dssync.data.LabeledArrays;
import io.dssync.data.Labels;
import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
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
   * {@code numSlices} partitions that keep the input's order. The arrays travel once, as a
   * broadcast (a task closure would carry them in every task and trip Spark's task-size warning);
   * rows are built on the executors from float slices, half the bytes of double vectors.
   */
  public static Dataset<Row> toDataFrame(SparkSession spark, LabeledArrays data, int numSlices) {
    requireSlices(numSlices); // before the broadcast, which a bad count would waste
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    return toDataFrame(spark, jsc.broadcast(data), data.labelWidth(), numSlices);
  }

  /**
   * As above from a broadcast of the examples, which the caller may use for other work too. The
   * label width comes from the caller's arrays: reading {@code shared.value()} on the driver can
   * deserialize a second copy when the broadcast spilled to disk, twice the heap.
   */
  public static Dataset<Row> toDataFrame(SparkSession spark, Broadcast<LabeledArrays> shared, int labelWidth,
      int numSlices) {
    requireSlices(numSlices);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    // Exactly numSlices partitions, some empty when there are fewer examples than slices.
    List<Integer> sliceIds = java.util.stream.IntStream.range(0, numSlices).boxed().toList();
    JavaRDD<Row> rows = jsc.parallelize(sliceIds, numSlices)
        .mapPartitions(ids -> rowsOf(shared.value(), ids.next(), numSlices), true);
    StructType schema = new StructType(new StructField[] {
        DataTypes.createStructField(FEATURES, SQLDataTypes.VectorType(), false),
        DataTypes.createStructField(LABEL, labelWidth == 1 ? DataTypes.DoubleType : SQLDataTypes.VectorType(),
            false)});
    return spark.createDataFrame(rows, schema);
  }

  private static void requireSlices(int numSlices) {
    if (numSlices < 1) {
      throw Errors.invalidSetting("numSlices", numSlices, "must be at least 1",
          "Pass the number of partitions wanted, e.g. the number of workers.");
    }
  }

  /**
   * Validates rows and packs them into {@link LabeledArrays}. Features may be an ml Vector (dense
   * or sparse) or an array of numbers; labels a number (a class index in 0..numClasses-1 for
   * class tasks) or, for label vectors, an ml Vector or array of numbers. Fails on the first bad
   * row, naming {@code where} (e.g. "in partition 3"), the row's position in {@code rows} and the
   * problem; an empty iterator is an error too, because every worker needs at least one example.
   */
  public static LabeledArrays collect(Iterator<Row> rows, int featuresIndex, int labelIndex,
      int featureSize, Labels labels, String where) {
    RowPacker packer = new RowPacker(featureSize, labels, where);
    while (rows.hasNext()) {
      Row row = rows.next();
      packer.add(row.get(featuresIndex), row.get(labelIndex));
    }
    if (packer.size() == 0) {
      throw DataErrors.badRecord(where, "it is empty: fewer examples than workers",
          "Use fewer workers or more data");
    }
    return packer.result();
  }

  /**
   * The rows of {@code data} (only the two columns) whose features and label pass the checks of
   * {@link #collect}; the others are dropped and logged (the first few per partition), for the
   * {@code --bad-records skip} policy. Problems with the columns themselves still fail at once.
   */
  public static Dataset<Row> dropBadRecords(Dataset<Row> data, String featuresCol, String labelCol,
      int featureSize, Labels labels) {
    requireColumns(data.schema(), featuresCol, labelCol);
    Dataset<Row> columns = data.select(featuresCol, labelCol);
    JavaRDD<Row> kept = columns.javaRDD().mapPartitionsWithIndex(
        (p, rows) -> new GoodRows(rows, featureSize, labels, p), true);
    return data.sparkSession().createDataFrame(kept, columns.schema());
  }

  /**
   * Fails unless {@code schema} has both columns with usable types: features an ml Vector or an
   * array of numbers, label numeric (or a vector or array of numbers for label vectors). The message
   * lists the columns present.
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
    boolean labelVector = label instanceof VectorUDT
        || label instanceof ArrayType labels && labels.elementType() instanceof NumericType;
    if (!(label instanceof NumericType) && !labelVector) {
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

  /**
   * The rows of contiguous slice {@code s} of {@code slices} (sizes differ by at most one), read
   * straight from the shared arrays.
   */
  private static Iterator<Row> rowsOf(LabeledArrays data, int s, int slices) {
    int n = data.size();
    int f = data.featureSize();
    int from = (int) ((long) n * s / slices);
    int to = (int) ((long) n * (s + 1) / slices);
    return new Iterator<>() {
      private int i = from;

      @Override
      public boolean hasNext() {
        return i < to;
      }

      @Override
      public Row next() {
        double[] values = new double[f];
        for (int j = 0; j < f; j++) {
          values[j] = data.features()[i * f + j];
        }
        int w = data.labelWidth();
        Object label;
        if (w == 1) {
          label = (double) data.labels()[i];
        } else {
          double[] l = new double[w];
          for (int j = 0; j < w; j++) {
            l[j] = data.labels()[i * w + j];
          }
          label = Vectors.dense(l);
        }
        i++;
        return RowFactory.create(Vectors.dense(values), label);
      }
    };
  }
}
