package io.dssync.data.frame;

import io.dssync.data.Labels;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.testing.ScalaLists;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Row validation without Spark, on hand-made rows (generated data: these test validation only). */
class DataFramesCollectTest {
  private static final String WHERE = "in partition 3";

  private static Iterator<Row> rows(Row... rows) {
    return Arrays.asList(rows).iterator();
  }

  private static Row good() {
    return RowFactory.create(Vectors.dense(0.5, 1.0, 0.0), 1.0);
  }

  /** The message of collecting {@code bad} as the third row (position 2) after two good rows. */
  private static String failure(Row bad) {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> DataFrames.collect(rows(good(), good(), bad), 0, 1, 3, Labels.classes(4), WHERE));
    assertEquals(ErrorKind.DATA, e.kind());
    assertTrue(e.getMessage().contains("in partition 3, row 2"), e.getMessage());
    return e.getMessage();
  }

  @Test
  void acceptsDenseSparseAndArrayFeaturesAndAnyNumericLabel() {
    LabeledArrays out = DataFrames.collect(rows(
        RowFactory.create(Vectors.dense(1, 2, 3), 0.0),
        RowFactory.create(Vectors.sparse(3, new int[] {1}, new double[] {5}), 3),
        RowFactory.create(ScalaLists.of(List.of(7.0, 8.0, 9.0)), 2L),
        RowFactory.create(List.of(1f, 0f, 2f), (short) 1)), 0, 1, 3, Labels.classes(4), WHERE);
    assertArrayEquals(new float[] {1, 2, 3, 0, 5, 0, 7, 8, 9, 1, 0, 2}, out.features());
    assertArrayEquals(new float[] {0, 3, 2, 1}, out.labels());
    assertEquals(3, out.featureSize());
    assertEquals(4, out.numClasses());
  }

  @Test
  void readsColumnsAtTheGivenIndices() {
    LabeledArrays out = DataFrames.collect(
        rows(RowFactory.create("id", 2.0, Vectors.dense(4, 5))), 2, 1, 2, Labels.classes(3), WHERE);
    assertArrayEquals(new float[] {4, 5}, out.features());
    assertArrayEquals(new float[] {2}, out.labels());
  }

  @Test
  void growsPastTheInitialCapacity() {
    Row[] many = new Row[100];
    for (int i = 0; i < many.length; i++) {
      many[i] = RowFactory.create(Vectors.dense(i, -i), (double) (i % 4));
    }
    LabeledArrays out = DataFrames.collect(rows(many), 0, 1, 2, Labels.classes(4), WHERE);
    assertEquals(100, out.size());
    assertEquals(99f, out.features()[198]);
    assertEquals(3, out.labels()[99]);
  }

  @Test
  void nullFeaturesAreRejected() {
    assertTrue(failure(RowFactory.create(null, 1.0)).contains("features are null"));
  }

  @Test
  void nullLabelIsRejected() {
    assertTrue(failure(RowFactory.create(Vectors.dense(1, 2, 3), null)).contains("label is null"));
  }

  @Test
  void wrongFeatureLengthNamesExpectedAndActual() {
    String m = failure(RowFactory.create(Vectors.dense(1, 2), 1.0));
    assertTrue(m.contains("features have length 2 but 3 was expected"), m);
    String sparse = failure(RowFactory.create(Vectors.sparse(5, new int[0], new double[0]), 1.0));
    assertTrue(sparse.contains("length 5 but 3"), sparse);
  }

  @Test
  void nonFiniteFeatureNamesItsIndex() {
    String nan = failure(RowFactory.create(Vectors.dense(1, 2, Double.NaN), 1.0));
    assertTrue(nan.contains("feature 2 is NaN"), nan);
    String inf = failure(RowFactory.create(
        Vectors.sparse(3, new int[] {1}, new double[] {Double.POSITIVE_INFINITY}), 1.0));
    assertTrue(inf.contains("feature 1 is Infinity"), inf);
    // Finite as a double but not as a float: would overflow in training just the same.
    String huge = failure(RowFactory.create(List.of(1e300, 0.0, 0.0), 1.0));
    assertTrue(huge.contains("feature 0 is 1.0E300"), huge);
  }

  @Test
  void nullArrayElementNamesItsIndex() {
    String m = failure(RowFactory.create(Arrays.asList(1.0, null, 2.0), 1.0));
    assertTrue(m.contains("feature 1 is null"), m);
  }

  @Test
  void labelOutsideTheClassesIsRejected() {
    String high = failure(RowFactory.create(Vectors.dense(1, 2, 3), 4.0));
    assertTrue(high.contains("label 4 is not an integer in 0..3"), high);
    String negative = failure(RowFactory.create(Vectors.dense(1, 2, 3), -1));
    assertTrue(negative.contains("label -1 is not"), negative);
  }

  @Test
  void fractionalOrNonNumericLabelIsRejected() {
    String fraction = failure(RowFactory.create(Vectors.dense(1, 2, 3), 1.5));
    assertTrue(fraction.contains("label 1.5 is not an integer"), fraction);
    String text = failure(RowFactory.create(Vectors.dense(1, 2, 3), "cat"));
    assertTrue(text.contains("label cat is a String, not a number"), text);
  }

  @Test
  void emptyPartitionIsRejectedWithAdvice() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> DataFrames.collect(rows(), 0, 1, 3, Labels.classes(4), WHERE));
    assertTrue(e.getMessage().contains("in partition 3: it is empty: fewer examples than workers"),
        e.getMessage());
    assertTrue(e.getMessage().contains("Use fewer workers or more data"), e.getMessage());
  }

  @Test
  void requireColumnsListsTheColumnsPresent() {
    StructType schema = new StructType()
        .add("image", SQLDataTypes.VectorType())
        .add("label", DataTypes.DoubleType)
        .add("name", DataTypes.StringType);
    DataFrames.requireColumns(schema, "image", "label");
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> DataFrames.requireColumns(schema, "features", "label"));
    assertTrue(e.getMessage().contains("no column 'features'"), e.getMessage());
    assertTrue(e.getMessage().contains("[image, label, name]"), e.getMessage());
    DsSyncException label = assertThrows(DsSyncException.class,
        () -> DataFrames.requireColumns(schema, "image", "class"));
    assertTrue(label.getMessage().contains("labelCol = class"), label.getMessage());
  }

  @Test
  void requireColumnsRejectsUnusableTypes() {
    StructType schema = new StructType()
        .add("features", DataTypes.StringType)
        .add("pixels", DataTypes.createArrayType(DataTypes.FloatType))
        .add("label", DataTypes.StringType);
    DsSyncException f = assertThrows(DsSyncException.class,
        () -> DataFrames.requireColumns(schema, "features", "label"));
    assertTrue(f.getMessage().contains("has type string, not a vector"), f.getMessage());
    DsSyncException l = assertThrows(DsSyncException.class,
        () -> DataFrames.requireColumns(schema, "pixels", "label"));
    assertTrue(l.getMessage().contains("'label' has type string, not a number"), l.getMessage());
  }
}
