package io.dssync.data.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dssync.data.LabeledArrays;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import java.util.List;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The DataFrame bridge through the shared test cluster (rows are built in executor JVMs), on a
 * slice of real Fashion-MNIST.
 */
class DataFramesSparkTest {
  private static SparkSession spark;
  private static LabeledArrays realTest;

  @BeforeAll
  static void start() {
    spark = TestSpark.session();
    realTest = TestData.fashionMnist().test();
  }

  @Test
  void roundTripThroughADataFrameKeepsEveryExampleInOrder() {
    LabeledArrays input = realTest.head(500);
    Dataset<Row> frame = DataFrames.toDataFrame(spark, input, 3);
    assertEquals(3, frame.javaRDD().getNumPartitions());
    assertEquals(List.of("features", "label"), List.of(frame.schema().fieldNames()));
    assertInstanceOf(DenseVector.class, frame.first().get(0));
    LabeledArrays back = DataFrames.collect(frame.collectAsList().iterator(), 0, 1,
        input.featureSize(), input.numClasses(), "in the collected frame");
    assertArrayEquals(input.features(), back.features());
    assertArrayEquals(input.labels(), back.labels());
  }

  @Test
  void morePartitionsThanExamplesGivesThePartitionsAskedAndEveryExampleOnce() {
    LabeledArrays input = realTest.head(2);
    Dataset<Row> frame = DataFrames.toDataFrame(spark, input, 4);
    assertEquals(4, frame.javaRDD().getNumPartitions());
    assertEquals(2, frame.count());
  }

  @Test
  void collectReadsArrayColumnsAsSparkDeliversThem() {
    LabeledArrays input = realTest.head(5);
    // vector_to_array gives array<float>: what a user converting vectors would hand us.
    List<Row> rows = DataFrames.toDataFrame(spark, input, 2)
        .select(functions.col("label"), org.apache.spark.ml.functions.vector_to_array(
            functions.col("features"), "float32").as("pixels"))
        .collectAsList();
    LabeledArrays back = DataFrames.collect(rows.iterator(), 1, 0, 784, 10, "in array rows");
    assertArrayEquals(input.features(), back.features());
    assertArrayEquals(input.labels(), back.labels());
  }
}
