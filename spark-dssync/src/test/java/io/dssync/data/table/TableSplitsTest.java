package io.dssync.data.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.testing.TestData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three validation splits on real Fashion-MNIST rows written as parquet: a second table, a
 * seeded fraction, and a boolean indicator column; plus the ways each can go wrong.
 */
@Order(LocalSpark.ORDER)
class TableSplitsTest {
  private static final int ROWS = 400;
  private static SparkSession spark;
  private static LabeledArrays fashion;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.session();
    fashion = TestData.fashionMnist().test().head(ROWS);
  }

  @Test
  void aTestTableOfTheSameFormatAndColumnsIsTheValidationSide() {
    String train = dir.resolve("train.parquet").toString();
    String test = dir.resolve("test.parquet").toString();
    Frames.examples(spark, fashion).limit(300).write().parquet(train);
    Frames.examples(spark, TestData.fashionMnist().train().head(50)).write().parquet(test);
    TableSource source = TableSource.of(train, "parquet", "features");
    TableSplit split = TableSplits.testData(spark, source, source.atPath(test), BadRecords.FAIL);
    assertEquals(300, split.train().rows());
    assertEquals(50, split.validation().rows());
    assertEquals(50, split.validation().frame().count());
    assertEquals(split.train().shape(), split.validation().shape());
  }

  @Test
  void aTestTableOfOtherExamplesIsRefusedNamingBothTables() {
    String train = dir.resolve("train.parquet").toString();
    String test = dir.resolve("small.parquet").toString();
    Frames.examples(spark, fashion).write().parquet(train);
    Frames.of(spark, List.of(RowFactory.create(List.of(1.0, 2.0, 3.0), 1.0)),
        "features", DataTypes.createArrayType(DataTypes.DoubleType), "label", DataTypes.DoubleType)
        .write().parquet(test);
    TableSource source = TableSource.of(train, "parquet", "features");
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> TableSplits.testData(spark, source, source.atPath(test), BadRecords.FAIL));
    assertEquals("The validation table " + test + " does not fit the training table " + train + ": its example"
        + " shape (channels x height x width) is 1x1x3 but the training table's is 1x1x784. Prepare both tables the"
        + " same way (same columns, lengths and image sizes).", e.getMessage());
  }

  @Test
  void aFractionSplitsEveryRowOnceTheSameWayForTheSameSeed() {
    String path = dir.resolve("fashion.parquet").toString();
    Frames.examples(spark, fashion).repartition(3).write().parquet(path);
    TableSource source = TableSource.of(path, "parquet", "features");
    TableSplit split = TableSplits.fraction(spark, source, 0.25, 7, BadRecords.FAIL);
    long held = split.validation().rows();
    assertEquals(ROWS, split.train().rows() + held);
    assertTrue(held > 60 && held < 140, "about a quarter held out: " + held);
    assertEquals(held, split.validation().frame().count());
    assertEquals(ROWS - held, split.train().frame().count());
    Set<String> train = keys(split.train());
    Set<String> validation = keys(split.validation());
    Set<String> all = new HashSet<>(train);
    all.addAll(validation);
    assertEquals(keys(TableReader.read(spark, source)), all, "every row on one side");
    assertEquals(ROWS, train.size() + validation.size(), "no row on both sides");
    assertEquals(validation, keys(TableSplits.fraction(spark, source, 0.25, 7, BadRecords.FAIL).validation()));
    assertNotEquals(validation, keys(TableSplits.fraction(spark, source, 0.25, 8, BadRecords.FAIL).validation()));
    assertEquals("Invalid validationFraction = 1.5: a held-out fraction is in (0, 1). Set validationFraction"
        + " between 0 and 1 (0 = no validation split).", assertThrows(DsSyncException.class,
        () -> TableSplits.fraction(spark, source, 1.5, 7, BadRecords.FAIL)).getMessage());
  }

  @Test
  void trueIndicatorRowsValidateAndTheOthersTrain() {
    String path = dir.resolve("marked.parquet").toString();
    // Every fourth row validates; the label column keeps the row's index to check which went where.
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      rows.add(RowFactory.create(List.of((double) fashion.labels()[i], i * 0.5), (double) i, i % 4 == 0));
    }
    Frames.of(spark, rows, "x", DataTypes.createArrayType(DataTypes.DoubleType), "row", DataTypes.DoubleType,
        "isValidation", DataTypes.BooleanType).write().parquet(path);
    TableSource source = TableSource.of(path, "parquet", "x").withLabel("row");
    TableSplit split = TableSplits.indicator(spark, source, "isValidation", BadRecords.FAIL);
    assertEquals(10, split.validation().rows());
    assertEquals(30, split.train().rows());
    for (double[] label : Frames.labels(split.validation())) {
      assertEquals(0, (int) label[0] % 4, "row " + label[0]);
    }
    for (double[] label : Frames.labels(split.train())) {
      assertNotEquals(0, (int) label[0] % 4, "row " + label[0]);
    }
    assertEquals(List.of("features", "label"), List.of(split.validation().frame().columns()));
  }

  @Test
  void anIndicatorThatIsNotBooleanNullOrNeverTrueIsNamed() {
    String path = dir.resolve("folds.parquet").toString();
    Frames.of(spark, List.of(RowFactory.create(1.0, 0.0, 0, false, null), RowFactory.create(2.0, 1.0, 1, false, true)),
        "x", DataTypes.DoubleType, "label", DataTypes.DoubleType, "fold", DataTypes.IntegerType,
        "never", DataTypes.BooleanType, "sometimes", DataTypes.BooleanType).coalesce(1).write().parquet(path);
    TableSource source = TableSource.of(path, "parquet", "x");
    assertEquals("The validation indicator column 'fold' of table " + path + " has type int; it must be boolean:"
        + " true marks a validation row, false a training row. Make one with a comparison, e.g."
        + " withColumn(\"isValidation\", col(\"fold\").equalTo(0)), and name that column.",
        assertThrows(DsSyncException.class,
            () -> TableSplits.indicator(spark, source, "fold", BadRecords.FAIL)).getMessage());
    assertEquals("Table " + path + " (validation side of the split by indicator column 'never') is empty: all 2"
        + " good rows went to the other side. Training needs at least one example; check the path, the filter that"
        + " made the table, or the bad records named in the executor logs.", assertThrows(DsSyncException.class,
        () -> TableSplits.indicator(spark, source, "never", BadRecords.FAIL)).getMessage());
    assertEquals("Bad record in table " + path + ", input partition 0, row 0: the validation indicator 'sometimes' is"
        + " null. Set it to true or false on every row", assertThrows(DsSyncException.class,
        () -> TableSplits.indicator(spark, source, "sometimes", BadRecords.FAIL)).getMessage());
    assertEquals("Table " + path + " has no validation indicator column 'sometime' (did you mean sometimes?); its"
        + " columns are [x, label, fold, never, sometimes]. Name one of those columns as the validation indicator"
        + " column.", assertThrows(DsSyncException.class,
        () -> TableSplits.indicator(spark, source, "sometime", BadRecords.FAIL)).getMessage());
  }

  /** Each row of a loaded table as text (features and label): rows of real images are distinct. */
  private static Set<String> keys(LoadedTable table) {
    List<Row> rows = table.frame().collectAsList();
    Set<String> out = new HashSet<>();
    for (Row r : rows) {
      out.add(Frames.text(((Vector) r.get(0)).toArray()) + " " + r.getDouble(1));
    }
    assertEquals(rows.size(), out.size(), "distinct rows");
    return out;
  }
}
