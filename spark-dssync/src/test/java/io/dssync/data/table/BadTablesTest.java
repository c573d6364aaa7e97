package io.dssync.data.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bad input fails before any training stage with a message that names the path or column and
 * the fix. Generated rows: each test builds the one defect it checks.
 */
@Order(LocalSpark.ORDER)
class BadTablesTest {
  private static final String ARRAY_FIX = "Every example must have the same size: pad, crop or filter the rows before"
      + " training.";
  private static SparkSession spark;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.session();
  }

  @Test
  void aPathThatMatchesNothingIsNamedBeforeSparkPlansARead() {
    String path = dir.resolve("no-such.parquet").toString();
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> TableReader.read(spark, TableSource.of(path, "parquet", "features")));
    assertEquals("Table " + path + " does not exist: no file or directory matches it. Check the path and its file"
        + " system scheme (file:///..., hdfs://...); a relative path is relative to the working directory of the"
        + " driver.", e.getMessage());
    assertEquals(ErrorKind.CONFIG, e.kind());
  }

  @Test
  void aPathOnAFileSystemHadoopDoesNotKnowIsNamedWithTheScheme() {
    assertEquals("Table nosuch://host/t.parquet cannot be opened: No FileSystem for scheme \"nosuch\". Check the"
        + " path's file system scheme (file:///..., hdfs://...) and that its Hadoop file system is on the class path.",
        message(() -> TableReader.read(spark, TableSource.of("nosuch://host/t.parquet", "parquet", "features"))));
  }

  @Test
  void aMissingColumnListsTheColumnsAndSuggestsACloseName() {
    String path = parquet("cols", List.of(RowFactory.create(Vectors.dense(1, 2), 0.0)),
        "features", SQLDataTypes.VectorType(), "label", DataTypes.DoubleType);
    assertEquals("Table " + path + " has no feature column 'featurs' (did you mean features?); its columns are"
        + " [features, label]. Name one of those columns as the feature column.",
        message(() -> TableReader.read(spark, TableSource.of(path, "parquet", "featurs"))));
    assertEquals("Table " + path + " has no label column 'class'; its columns are [features, label]. Name one of"
        + " those columns as the label column.",
        message(() -> TableReader.read(spark, TableSource.of(path, "parquet", "features").withLabel("class"))));
  }

  @Test
  void stringFeaturesAskToBeIndexedOrEncoded() throws Exception {
    Path csv = dir.resolve("colours.csv");
    Files.writeString(csv, "colour,size,label\nred,1.5,0\nblue,2.5,1\n");
    String fix = "Index or encode strings first: StringIndexer turns a string column into category indices (then"
        + " OneHotEncoder, if wanted), and VectorAssembler puts several columns into one vector.";
    String expected = "The feature column 'colour' of table " + csv + " has type string; features must be an ml"
        + " Vector, an array of numbers, an image of Spark's image source, or numbers in one or more numeric"
        + " columns. " + fix;
    assertEquals(expected, message(() -> TableReader.read(spark, TableSource.of(csv.toString(), "csv", "colour"))));
    assertEquals(expected,
        message(() -> TableReader.read(spark, TableSource.of(csv.toString(), "csv", "size", "colour"))));
  }

  @Test
  void vectorsSavedAsJsonComeBackAsStructsAndAskForArrays() {
    String path = dir.resolve("vectors.json").toString();
    Frames.of(spark, List.of(RowFactory.create(Vectors.dense(1, 2), 0.0)),
        "features", SQLDataTypes.VectorType(), "label", DataTypes.DoubleType).write().json(path);
    String m = message(() -> TableReader.read(spark, TableSource.of(path, "json", "features")));
    assertTrue(m.startsWith("The feature column 'features' of table " + path + " has type struct<"), m);
    assertTrue(m.endsWith("; features must be an ml Vector, an array of numbers, an image of Spark's image source,"
        + " or numbers in one or more numeric columns. It looks like an ml Vector saved as JSON or ORC, which Spark"
        + " reads back as a plain struct: save vector_to_array(col(\"features\")) instead, or use parquet, which"
        + " keeps vectors."), m);
  }

  @Test
  void aVectorAmongSeveralFeatureColumnsAsksForOneColumnOrAssembly() {
    Dataset<Row> t = Frames.of(spark, List.of(RowFactory.create(1.0, Vectors.dense(1, 2), 0)),
        "a", DataTypes.DoubleType, "v", SQLDataTypes.VectorType(), "label", DataTypes.IntegerType);
    assertEquals("The feature column 'v' of table t has type vector; with several feature columns each must hold"
        + " one number. Name one vector, array or image column alone, or assemble the columns into one vector first"
        + " (e.g. with VectorAssembler).", message(() -> TableReader.fromFrame(t, "t", TableColumns.of("a", "v"),
        BadRecords.FAIL)));
  }

  @Test
  void labelsOfATypeThatDoesNotFitAreNamedWithTheFix() {
    Dataset<Row> t = Frames.of(spark, List.of(RowFactory.create(1.0, "cat", true)),
        "x", DataTypes.DoubleType, "animal", DataTypes.StringType, "flag", DataTypes.BooleanType);
    assertEquals("The label column 'animal' of table t has type string; a label must be a number, an array of"
        + " numbers or an ml Vector. Index string labels first, e.g. with StringIndexer (setInputCol(\"animal\")"
        + ".setOutputCol(\"animalIndex\")), and name that column as the label.",
        message(() -> TableReader.fromFrame(t, "t", TableColumns.of("x").withLabel("animal"), BadRecords.FAIL)));
    assertEquals("The label column 'flag' of table t has type boolean; a label must be a number, an array of"
        + " numbers or an ml Vector. Cast it to a number first, e.g. col(\"flag\").cast(\"double\").",
        message(() -> TableReader.fromFrame(t, "t", TableColumns.of("x").withLabel("flag"), BadRecords.FAIL)));
  }

  @Test
  void arraysOfUnequalLengthNameTheColumnTheRowAndBothLengths() {
    String path = dir.resolve("ragged.json").toString();
    spark.createDataFrame(List.of(
        RowFactory.create(List.of(1.0, 2.0, 3.0, 4.0), 0),
        RowFactory.create(List.of(1.0, 2.0, 3.0, 4.0), 1),
        RowFactory.create(List.of(1.0, 2.0, 3.0, 4.0, 5.0), 1)), schema(
            "pixels", DataTypes.createArrayType(DataTypes.DoubleType), "label", DataTypes.IntegerType))
        .coalesce(1).write().json(path);
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> TableReader.read(spark, TableSource.of(path, "json", "pixels"), BadRecords.SKIP));
    assertEquals("Column 'pixels' of table " + path + " holds arrays of different sizes: input partition 0, row 2"
        + " has 5 values, but the first row (input partition 0, row 0) has 4 values. " + ARRAY_FIX, e.getMessage());
    assertEquals(ErrorKind.DATA, e.kind());
  }

  @Test
  void aPartitionThatStartsWithAnotherLengthIsCaughtToo() {
    // Arrays as double[]: rows of an RDD are encoded without the conversion of Java lists.
    List<Row> rows = List.of(
        RowFactory.create(new double[] {1, 2}, new double[] {1}),
        RowFactory.create(new double[] {3, 4}, new double[] {0}),
        RowFactory.create(new double[] {5, 6}, new double[] {0, 1}),
        RowFactory.create(new double[] {7, 8}, new double[] {1, 1}));
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Dataset<Row> t = spark.createDataFrame(jsc.parallelize(rows, 2), schema(
        "x", DataTypes.createArrayType(DataTypes.DoubleType), "y", DataTypes.createArrayType(DataTypes.DoubleType)));
    assertEquals("Column 'y' of table two partitions holds arrays of different sizes: input partition 1, row 0 has 2"
        + " values, but the first row (input partition 0, row 0) has 1 value. " + ARRAY_FIX,
        message(() -> TableReader.fromFrame(t, "two partitions", TableColumns.of("x").withLabel("y"),
            BadRecords.FAIL)));
  }

  @Test
  void nullAndNanValuesFailAtTheFirstBadRowOrAreSkippedAndCounted() {
    String path = parquet("holes", List.of(
        RowFactory.create(1.0, 2.0, 0.0),
        RowFactory.create(3.0, Double.NaN, 1.0),
        RowFactory.create(5.0, 6.0, null),
        RowFactory.create(null, 8.0, 1.0),
        RowFactory.create(9.0, 1e300, 1.0),
        RowFactory.create(1.0, 0.5, Double.NaN),
        RowFactory.create(7.0, 7.5, 1.0)),
        "a", DataTypes.DoubleType, "b", DataTypes.DoubleType, "label", DataTypes.DoubleType);
    TableSource source = TableSource.of(path, "parquet", "a", "b");
    DsSyncException e = assertThrows(DsSyncException.class, () -> TableReader.read(spark, source));
    assertEquals("Bad record in table " + path + ", input partition 0, row 1: feature 1 is NaN (not finite as a"
        + " float). Drop or repair such rows, or skip them with --bad-records skip", e.getMessage());
    assertEquals(ErrorKind.DATA, e.kind());
    LoadedTable kept = TableReader.read(spark, source, BadRecords.SKIP);
    assertEquals(2, kept.rows());
    assertEquals(5, kept.skipped());
    List<double[]> features = Frames.features(kept);
    assertEquals(2, features.size());
    assertArrayEquals(new double[] {1, 2}, features.get(0));
    assertArrayEquals(new double[] {7, 7.5}, features.get(1));
    assertEquals(List.of(0.0, 1.0), Frames.labels(kept).stream().map(l -> l[0]).toList());
  }

  @Test
  void eachBadValueIsNamed() {
    assertEquals("Bad record in table t, input partition 0, row 0: the label is null. Drop or fill rows with"
        + " missing labels, or skip them with --bad-records skip", firstBad(RowFactory.create(1.0, null)));
    assertEquals("Bad record in table t, input partition 0, row 0: the label is NaN (not finite as a float). Drop"
        + " or fill rows with missing labels, or skip them with --bad-records skip",
        firstBad(RowFactory.create(1.0, Double.NaN)));
    assertEquals("Bad record in table t, input partition 0, row 0: feature column 'x' is null. Drop or repair such"
        + " rows, or skip them with --bad-records skip", firstBad(RowFactory.create(null, 1.0)));
    assertEquals("Bad record in table t, input partition 0, row 0: feature 0 is Infinity (not finite as a float)."
        + " Drop or repair such rows, or skip them with --bad-records skip",
        firstBad(RowFactory.create(Double.POSITIVE_INFINITY, 1.0)));
    Dataset<Row> arrays = Frames.of(spark,
        List.of(RowFactory.create(Arrays.asList(1.0, null), List.of(1.0, Double.NaN))),
        "x", DataTypes.createArrayType(DataTypes.DoubleType), "y", DataTypes.createArrayType(DataTypes.DoubleType));
    assertEquals("Bad record in table t, input partition 0, row 0: label value 1 is NaN (not finite as a float)."
        + " Drop or fill rows with missing labels, or skip them with --bad-records skip",
        message(() -> TableReader.fromFrame(arrays, "t", TableColumns.of("x").withLabel("y"), BadRecords.FAIL)));
    Dataset<Row> ids = Frames.of(spark, List.of(RowFactory.create(List.of(3L, -1L), 1)),
        "ids", DataTypes.createArrayType(DataTypes.LongType), "label", DataTypes.IntegerType);
    assertEquals("Bad record in table t, input partition 0, row 0: token id -1 at position 1 is not in 0..16777216,"
        + " the integers a float holds exactly. Map the ids into 0..16777216 (e.g. re-index the vocabulary), or skip"
        + " such rows with --bad-records skip",
        message(() -> TableReader.fromFrame(ids, "t", TableColumns.of("ids"), BadRecords.FAIL)));
  }

  @Test
  void aTableWithNoRowsOrNoneLeftIsEmpty() throws Exception {
    String none = parquet("none", List.of(), "x", DataTypes.DoubleType, "label", DataTypes.DoubleType);
    assertEquals("Table " + none + " is empty: it has no rows. Training needs at least one example; check the path,"
        + " the filter that made the table, or the bad records named in the executor logs.",
        message(() -> TableReader.read(spark, TableSource.of(none, "parquet", "x"))));
    String allBad = parquet("all-bad", List.of(RowFactory.create(Double.NaN, 1.0), RowFactory.create(1.0, null)),
        "x", DataTypes.DoubleType, "label", DataTypes.DoubleType);
    assertEquals("Table " + allBad + " is empty: all 2 rows are bad records, skipped under --bad-records skip."
        + " Training needs at least one example; check the path, the filter that made the table, or the bad"
        + " records named in the executor logs.",
        message(() -> TableReader.read(spark, TableSource.of(allBad, "parquet", "x"), BadRecords.SKIP)));
    Path emptyFolder = Files.createDirectories(dir.resolve("no-files"));
    assertEquals("Table " + emptyFolder + " is empty: it has no data files that Spark's parquet reader can read."
        + " Training needs at least one example; check the path, the filter that made the table, or the bad records"
        + " named in the executor logs.",
        message(() -> TableReader.read(spark, TableSource.of(emptyFolder.toString(), "parquet", "x"))));
  }

  @Test
  void aFileOfAnotherFormatSaysWhichReaderFailed() throws Exception {
    Path notParquet = dir.resolve("table.parquet");
    Files.writeString(notParquet, "x,label\n1,0\n");
    String m = message(() -> TableReader.read(spark, TableSource.of(notParquet.toString(), "parquet", "x")));
    assertTrue(m.startsWith("Table " + notParquet + " could not be read as parquet: "), m);
    assertTrue(m.endsWith(". Check that the files are parquet (or name their format), and that every file of the"
        + " folder is."), m);
  }

  @Test
  void aLayoutOfAnotherSizeIsRefused() {
    Dataset<Row> t = Frames.of(spark, List.of(RowFactory.create(List.of(1.0, 2.0, 3.0), 0)),
        "x", DataTypes.createArrayType(DataTypes.DoubleType), "label", DataTypes.IntegerType);
    assertEquals("Invalid imageLayout = 1x2x2: it holds 4 values but each example of table t has 3 features (column"
        + " x). Give a layout of 3 values, or none for 1 x 1 x 3.", message(() -> TableReader.fromFrame(t, "t",
        TableColumns.of("x").withLayout(new ImageLayout(1, 2, 2)), BadRecords.FAIL)));
  }

  private static String firstBad(Row row) {
    Dataset<Row> t = Frames.of(spark, List.of(row), "x", DataTypes.DoubleType, "label", DataTypes.DoubleType);
    return message(() -> TableReader.fromFrame(t, "t", TableColumns.of("x"), BadRecords.FAIL));
  }

  private String parquet(String name, List<Row> rows, Object... nameTypePairs) {
    String path = dir.resolve(name + ".parquet").toString();
    Frames.of(spark, rows, nameTypePairs).coalesce(1).write().parquet(path);
    return path;
  }

  private static StructType schema(Object... nameTypePairs) {
    return Frames.of(spark, List.of(), nameTypePairs).schema();
  }

  private static String message(org.junit.jupiter.api.function.Executable read) {
    return assertThrows(DsSyncException.class, read).getMessage();
  }
}
