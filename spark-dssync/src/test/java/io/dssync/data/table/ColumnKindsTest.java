package io.dssync.data.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.List;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Each kind of feature and label column, on small generated rows (values chosen so that a wrong
 * order, a lost sparse entry or a rounded id shows): what the trainer gets and the shape it is told.
 */
@Order(LocalSpark.ORDER)
class ColumnKindsTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = LocalSpark.session();
  }

  @Test
  void denseAndSparseVectorsBothBecomeDense() {
    LoadedTable t = TableReader.fromFrame(Frames.of(spark, List.of(
        RowFactory.create(Vectors.dense(1.5, 0, -2), 1),
        RowFactory.create(Vectors.sparse(3, new int[] {2}, new double[] {7.25}), 0)),
        "v", SQLDataTypes.VectorType(), "label", DataTypes.IntegerType), "vectors", TableColumns.of("v"),
        BadRecords.FAIL);
    assertEquals(new TableShape(1, 1, 3, 1, false), t.shape());
    assertArrayEquals(new double[] {1.5, 0, -2}, Frames.features(t).get(0));
    assertArrayEquals(new double[] {0, 0, 7.25}, Frames.features(t).get(1));
    assertEquals(org.apache.spark.ml.linalg.DenseVector.class, t.frame().collectAsList().get(1).get(0).getClass());
    assertArrayEquals(new double[] {0}, Frames.labels(t).get(1));
  }

  @Test
  void floatAndDoubleArraysKeepTheirValues() {
    LoadedTable floats = TableReader.fromFrame(Frames.of(spark, List.of(
        RowFactory.create(List.of(0.1f, 2.5f), 3L)),
        "a", DataTypes.createArrayType(DataTypes.FloatType), "label", DataTypes.LongType), "floats",
        TableColumns.of("a"), BadRecords.FAIL);
    assertArrayEquals(new float[] {0.1f, 2.5f}, Frames.floats(Frames.features(floats).get(0)));
    assertEquals(3.0, Frames.labels(floats).get(0)[0]);
    assertEquals(false, floats.shape().idsInput());
    LoadedTable doubles = TableReader.fromFrame(Frames.of(spark, List.of(
        RowFactory.create(List.of(0.1, -1e-3, 4.0), 1.0)),
        "a", DataTypes.createArrayType(DataTypes.DoubleType), "label", DataTypes.DoubleType), "doubles",
        TableColumns.of("a"), BadRecords.FAIL);
    assertArrayEquals(new double[] {0.1, -1e-3, 4.0}, Frames.features(doubles).get(0));
  }

  @Test
  void integerArraysAreTokenIdsKeptExact() {
    LoadedTable ints = TableReader.fromFrame(Frames.of(spark, List.of(
        RowFactory.create(List.of(101, 16_777_216, 0), 1)),
        "ids", DataTypes.createArrayType(DataTypes.IntegerType), "label", DataTypes.IntegerType), "ints",
        TableColumns.of("ids"), BadRecords.FAIL);
    assertEquals(new TableShape(1, 1, 3, 1, true), ints.shape());
    assertArrayEquals(new double[] {101, 16_777_216, 0}, Frames.features(ints).get(0));
    LoadedTable longs = TableReader.fromFrame(Frames.of(spark, List.of(
        RowFactory.create(List.of(30_522L, 7L), 0)),
        "ids", DataTypes.createArrayType(DataTypes.LongType), "label", DataTypes.IntegerType), "longs",
        TableColumns.of("ids"), BadRecords.FAIL);
    assertEquals(true, longs.shape().idsInput());
    assertArrayEquals(new double[] {30_522, 7}, Frames.features(longs).get(0));
  }

  @Test
  void numericColumnsOfAnyTypeAreAssembledInTheOrderNamed() {
    LoadedTable t = TableReader.fromFrame(Frames.of(spark, List.of(
        RowFactory.create(1, 2.5, 3L, new BigDecimal("4.25"), 5.5f, (short) 6, 0)),
        "i", DataTypes.IntegerType, "d", DataTypes.DoubleType, "l", DataTypes.LongType,
        "m", DataTypes.createDecimalType(5, 2), "f", DataTypes.FloatType, "s", DataTypes.ShortType,
        "label", DataTypes.IntegerType), "numbers",
        new TableColumns(List.of("f", "i", "m", "d", "s", "l"), "label", null), BadRecords.FAIL);
    assertEquals(new TableShape(1, 1, 6, 1, false), t.shape());
    assertArrayEquals(new double[] {5.5, 1, 4.25, 2.5, 6, 3}, Frames.features(t).get(0));
  }

  @Test
  void arrayAndVectorLabelsBecomeVectorsOfTheirWidth() {
    LoadedTable arrays = TableReader.fromFrame(Frames.of(spark, List.of(
        RowFactory.create(List.of(1.0, 2.0), List.of(0.5f, 1f, 0f)),
        RowFactory.create(List.of(3.0, 4.0), List.of(-0.5f, 0f, 1f))),
        "x", DataTypes.createArrayType(DataTypes.DoubleType), "y", DataTypes.createArrayType(DataTypes.FloatType)),
        "multi-output", TableColumns.of("x").withLabel("y"), BadRecords.FAIL);
    assertEquals(new TableShape(1, 1, 2, 3, false), arrays.shape());
    assertEquals(SQLDataTypes.VectorType(), arrays.frame().schema().apply("label").dataType());
    assertArrayEquals(new double[] {-0.5, 0, 1}, Frames.labels(arrays).get(1));
    LoadedTable vectors = TableReader.fromFrame(Frames.of(spark, List.of(
        RowFactory.create(List.of(1.0), Vectors.sparse(4, new int[] {1, 3}, new double[] {1, 1}))),
        "x", DataTypes.createArrayType(DataTypes.DoubleType), "tags", SQLDataTypes.VectorType()),
        "multi-label", TableColumns.of("x").withLabel("tags"), BadRecords.FAIL);
    assertEquals(4, vectors.shape().labelWidth());
    assertArrayEquals(new double[] {0, 1, 0, 1}, Frames.labels(vectors).get(0));
  }

  @Test
  void aLayoutReadsFlatFeaturesAsAnImage() {
    LoadedTable t = TableReader.fromFrame(Frames.of(spark, List.of(
        RowFactory.create(List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0), 1)),
        "x", DataTypes.createArrayType(DataTypes.DoubleType), "label", DataTypes.IntegerType), "six",
        TableColumns.of("x").withLayout(new ImageLayout(1, 2, 3)), BadRecords.FAIL);
    assertEquals(new TableShape(1, 2, 3, 1, false), t.shape());
    assertEquals(6, t.shape().featureSize());
  }

  @Test
  void columnNamesWithDotsAreTakenAsWritten() {
    LoadedTable t = TableReader.fromFrame(Frames.of(spark, List.of(RowFactory.create(1.0, 2.0, 0)),
        "a.b", DataTypes.DoubleType, "c d", DataTypes.DoubleType, "label", DataTypes.IntegerType), "dotted",
        new TableColumns(List.of("c d", "a.b"), "label", null), BadRecords.FAIL);
    assertArrayEquals(new double[] {2, 1}, Frames.features(t).get(0));
  }
}
