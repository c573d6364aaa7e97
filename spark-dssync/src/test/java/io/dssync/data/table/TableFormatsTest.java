package io.dssync.data.table;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.testing.TestData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every format round-trips real Fashion-MNIST rows: written with Spark's writer in the column kind
 * that format keeps (vectors in parquet and libsvm, arrays in orc and json, one column per pixel in
 * csv), read back by the table reader, and compared with the examples written.
 */
@Order(LocalSpark.ORDER)
class TableFormatsTest {
  private static final int ROWS = 120;
  private static SparkSession spark;
  private static LabeledArrays fashion;
  private static Dataset<Row> written;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.session();
    fashion = TestData.fashionMnist().test().head(ROWS);
    written = Frames.examples(spark, fashion);
  }

  @Test
  void parquetKeepsVectorFeaturesAndDoubleLabels() {
    String path = dir.resolve("fashion.parquet").toString();
    written.write().parquet(path);
    LoadedTable table = TableReader.read(spark, TableSource.of(path, "parquet", "features"));
    assertSameExamples(table, 784);
    assertEquals(new TableShape(1, 1, 784, 1, false), table.shape());
    assertEquals(SQLDataTypes.VectorType(), table.frame().schema().apply("features").dataType());
    assertEquals(DataTypes.DoubleType, table.frame().schema().apply("label").dataType());
  }

  @Test
  void orcKeepsFloatArraysAndIntegerLabels() {
    String path = dir.resolve("fashion.orc").toString();
    written.select(org.apache.spark.ml.functions.vector_to_array(col("features"), "float32").as("pixels"),
        col("label").cast("int").as("class")).write().orc(path);
    LoadedTable table = TableReader.read(spark, TableSource.of(path, "orc", "pixels").withLabel("class"));
    assertSameExamples(table, 784);
    assertFalse(table.shape().idsInput());
  }

  @Test
  void jsonKeepsDoubleArraysAndIntegerArraysAreTokenIds() {
    String path = dir.resolve("fashion.json").toString();
    // The pixels' bytes (0..255) stand in for token ids: real integer sequences of one length.
    Column pixels = org.apache.spark.ml.functions.vector_to_array(col("features"), "float64");
    written.select(pixels.as("pixels"),
        org.apache.spark.sql.functions.transform(pixels, v -> org.apache.spark.sql.functions.round(v.multiply(255))
            .cast("int")).as("ids"),
        col("label")).write().json(path);
    LoadedTable doubles = TableReader.read(spark, TableSource.of(path, "json", "pixels"));
    assertSameExamples(doubles, 784);
    LoadedTable ids = TableReader.read(spark, TableSource.of(path, "json", "ids"));
    assertEquals(new TableShape(1, 1, 784, 1, true), ids.shape());
    List<double[]> read = Frames.features(ids);
    for (int i = 0; i < ROWS; i++) {
      double[] expected = Frames.row(fashion, i);
      for (int j = 0; j < expected.length; j++) {
        expected[j] = Math.round(expected[j] * 255);
      }
      assertArrayEquals(expected, read.get(i), "row " + i);
    }
  }

  @Test
  void csvGivesNumericColumnsAssembledInTheOrderNamed() {
    String path = dir.resolve("fashion.csv").toString();
    int[] chosen = {500, 14, 406, 300};
    List<Column> columns = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int j : chosen) {
      names.add("p" + j);
      columns.add(org.apache.spark.ml.functions.vector_to_array(col("features"), "float64").getItem(j).as("p" + j));
    }
    columns.add(col("label").cast("int").as("label"));
    written.select(columns.toArray(Column[]::new)).write().option("header", "true").csv(path);
    LoadedTable table = TableReader.read(spark, new TableSource(path, TableFormat.CSV,
        new TableColumns(names, "label", null)));
    assertEquals(new TableShape(1, 1, 4, 1, false), table.shape());
    List<double[]> read = Frames.features(table);
    List<double[]> labels = Frames.labels(table);
    for (int i = 0; i < ROWS; i++) {
      double[] all = Frames.row(fashion, i);
      double[] expected = {all[500], all[14], all[406], all[300]};
      assertArrayEquals(Frames.floats(expected), Frames.floats(read.get(i)), "row " + i);
      assertEquals(fashion.labels()[i], labels.get(i)[0]);
    }
  }

  @Test
  void libsvmGivesSparseVectorsMadeDense() {
    String path = dir.resolve("fashion.libsvm").toString();
    written.select("label", "features").write().format("libsvm").save(path);
    assertTrue(spark.read().format("libsvm").load(path).first().get(1) instanceof SparseVector,
        "Spark's libsvm reader gives sparse vectors");
    // Spark's libsvm writer writes every value of a dense vector, zeros too: all 784 come back.
    assertSameExamples(TableReader.read(spark, TableSource.of(path, "libsvm", "features")), 784);
  }

  /** The loaded rows are the written examples (their first {@code d} features) with their labels, in order. */
  private static void assertSameExamples(LoadedTable table, int d) {
    assertEquals(List.of("features", "label"), List.of(table.frame().columns()));
    assertEquals(ROWS, table.rows());
    assertEquals(0, table.skipped());
    List<double[]> read = Frames.features(table);
    List<double[]> labels = Frames.labels(table);
    assertEquals(ROWS, read.size());
    for (int i = 0; i < ROWS; i++) {
      float[] expected = java.util.Arrays.copyOf(Frames.floats(Frames.row(fashion, i)), d);
      assertArrayEquals(expected, Frames.floats(read.get(i)), "row " + i);
      assertEquals(fashion.labels()[i], labels.get(i)[0], "label of row " + i);
    }
  }
}
