package io.dssync.data.frame;

import io.dssync.data.Labels;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
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
        input.featureSize(), input.labelSpec(), "in the collected frame");
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
    LabeledArrays back = DataFrames.collect(rows.iterator(), 1, 0, 784, Labels.classes(10), "in array rows");
    assertArrayEquals(input.features(), back.features());
    assertArrayEquals(input.labels(), back.labels());
  }

  @Test
  void aSliceCountBelowOneIsNamed() {
    DsSyncException e = assertThrows(DsSyncException.class, () -> DataFrames.toDataFrame(spark, realTest.head(3), 0));
    assertTrue(e.getMessage().contains("numSlices"), e.getMessage());
  }

  @Test
  void examplesInMemoryAreShardedExactlyAsTheirDataFrameIs() {
    LabeledArrays input = realTest.head(23);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Broadcast<LabeledArrays> shared = jsc.broadcast(input);
    for (int workers : new int[] {1, 2, 3, 5}) {
      // The frame in 2 partitions: its shards come through the shuffle of pieces.
      List<LabeledArrays> viaFrame = ShardedData.shard(DataFrames.toDataFrame(spark, shared, 1, 2), "features", "label",
          784, Labels.classes(10), workers).collect();
      List<LabeledArrays> inMemory = ShardedData.shard(jsc, shared, workers).collect();
      assertEquals(workers, inMemory.size());
      for (int r = 0; r < workers; r++) {
        assertArrayEquals(viaFrame.get(r).features(), inMemory.get(r).features(), "shard " + r + " of " + workers);
        assertArrayEquals(viaFrame.get(r).labels(), inMemory.get(r).labels(), "shard " + r + " of " + workers);
      }
    }
  }

  @Test
  void aHoldOutLeavesEveryExampleInOnePlaceAndIsTheSameForEveryWorkerCount() {
    LabeledArrays input = realTest.head(300);
    Dataset<Row> frame = DataFrames.toDataFrame(spark, input, 3);
    HoldOut holdOut = new HoldOut(0.2, 42);
    LabeledArrays firstHeldOut = null;
    for (int workers : new int[] {2, 3}) {
      ShardedData.Cut cut = ShardedData.shard(frame, "features", "label", 784, Labels.classes(10), workers, holdOut);
      List<LabeledArrays> shards = cut.training().collect();
      assertEquals(workers, shards.size());
      List<String> seen = new ArrayList<>(examples(cut.heldOut()));
      shards.forEach(s -> seen.addAll(examples(s)));
      List<String> all = new ArrayList<>(examples(input));
      Collections.sort(seen);
      Collections.sort(all);
      assertEquals(all, seen, "held out and trained on: every example once, " + workers + " workers");
      int kept = input.size() - cut.heldOut().size();
      for (LabeledArrays s : shards) {
        assertTrue(Math.abs(s.size() - (double) kept / workers) < 1, "round robin over the kept examples");
      }
      assertTrue(cut.heldOut().size() > 0 && cut.heldOut().size() < input.size() / 2, cut.heldOut().size() + " held");
      if (firstHeldOut == null) {
        firstHeldOut = cut.heldOut();
      } else {
        assertArrayEquals(firstHeldOut.features(), cut.heldOut().features(), "the same hold-out for every N");
        assertArrayEquals(firstHeldOut.labels(), cut.heldOut().labels());
      }
    }
  }

  /** Each example as text (its label and features), to compare collections of examples. */
  private static List<String> examples(LabeledArrays a) {
    List<String> out = new ArrayList<>();
    int d = a.featureSize();
    for (int k = 0; k < a.size(); k++) {
      out.add(a.labels()[k] + ":" + Arrays.toString(Arrays.copyOfRange(a.features(), k * d, k * d + d)));
    }
    return out;
  }

  @Test
  void inMemoryShardsAreCheckedAsRowsAreAndTheBadExampleIsNamed() {
    LabeledArrays input = realTest.head(10);
    float[] features = input.features().clone();
    features[7 * 784 + 3] = Float.NaN;
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Exception nan = assertThrows(Exception.class, () -> ShardedData.shard(jsc,
        jsc.broadcast(new LabeledArrays(features, input.labels(), 784, Labels.classes(10))), 3));
    assertTrue(nan.getMessage().contains("in the training set, row 7"), nan.getMessage());
    assertTrue(nan.getMessage().contains("feature 3 is NaN"), nan.getMessage());
    float[] labels = input.labels().clone();
    labels[4] = 10;
    Exception label = assertThrows(Exception.class, () -> ShardedData.shard(jsc,
        jsc.broadcast(new LabeledArrays(input.features(), labels, 784, Labels.classes(10))), 2));
    assertTrue(label.getMessage().contains("row 4") && label.getMessage().contains("the label 10 is not an integer"),
        label.getMessage());
    DsSyncException few = assertThrows(DsSyncException.class, () -> ShardedData.shard(jsc, jsc.broadcast(input), 11));
    assertTrue(few.getMessage().contains("10 examples, fewer than the 11 workers"), few.getMessage());
  }
}
