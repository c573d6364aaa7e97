package io.dssync.data.frame;

import io.dssync.data.HeapArrays;
import io.dssync.data.LabeledArrays;
import io.dssync.data.Labels;
import io.dssync.errors.DataErrors;
import io.dssync.errors.DsSyncException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * Splits a (features, label) DataFrame into N training shards, one per worker, deterministically:
 * shard r holds the examples whose position in the DataFrame is congruent to r modulo N, in their
 * original order. Spark's {@code repartition} would be faster to write but its order within a
 * partition depends on fetch order, and the invariant tests need to know exactly what each
 * worker trains on. Each shard is one compact {@link LabeledArrays}, cached for all stages.
 */
public final class ShardedData {
  private ShardedData() {}

  public static JavaRDD<LabeledArrays> shard(
      Dataset<Row> data, String featuresCol, String labelCol, int featureSize, Labels labels, int workers) {
    return shard(data, featuresCol, labelCol, featureSize, labels, workers, null).training();
  }

  /**
   * The shards of the examples {@code holdOut} keeps (position = index among the kept ones), and the
   * held-out examples collected to the driver in input order, from one read of the rows. Without a
   * hold-out ({@code null}) every example is kept and {@link Cut#heldOut} is null.
   */
  public static Cut shard(Dataset<Row> data, String featuresCol, String labelCol, int featureSize,
      Labels labels, int workers, HoldOut holdOut) {
    DataFrames.requireColumns(data.schema(), featuresCol, labelCol);
    JavaRDD<LabeledArrays> blocks = data.select(featuresCol, labelCol).javaRDD()
        .mapPartitionsWithIndex((p, rows) -> Collections.singletonList(
            rows.hasNext()
                ? DataFrames.collect(rows, 0, 1, featureSize, labels, "in input partition " + p)
                : new LabeledArrays(new float[0], new float[0], featureSize, labels)).iterator(), true)
        .persist(StorageLevel.MEMORY_AND_DISK());
    List<Integer> kept = blocks.mapPartitionsWithIndex((p, it) -> {
      int size = it.next().size();
      return List.of(holdOut == null ? size : size - holdOut.heldCount(p, size)).iterator();
    }, true).collect();
    long[] offsets = new long[kept.size()];
    long total = 0;
    for (int p = 0; p < offsets.length; p++) {
      offsets[p] = total;
      total += kept.get(p);
    }
    if (total < workers) {
      blocks.unpersist(false);
      throw tooFewExamples(total, workers);
    }
    LabeledArrays heldOut = holdOut == null ? null : LabeledArrays.concat(blocks
        .mapPartitionsWithIndex((p, it) -> List.of(holdOut.select(p, it.next(), true)).iterator(), true)
        .collect());
    JavaPairRDD<Integer, Piece> pieces = blocks
        .mapPartitionsWithIndex((p, it) -> {
          LabeledArrays block = holdOut == null ? it.next() : holdOut.select(p, it.next(), false);
          return split(p, offsets[p], block, workers).iterator();
        }, true)
        .mapToPair(piece -> new Tuple2<>(piece.shard, piece))
        .partitionBy(new ShardPartitioner(workers));
    JavaRDD<LabeledArrays> shards = pieces.values()
        .mapPartitions(ShardedData::concatenate, true)
        .persist(StorageLevel.MEMORY_AND_DISK());
    shards.count(); // materialize before the intermediate is dropped
    blocks.unpersist(false);
    return new Cut(shards, heldOut);
  }

  /** The training shards (one partition per worker, cached) and the held-out examples, or null. */
  public record Cut(JavaRDD<LabeledArrays> training, LabeledArrays heldOut) {}

  /**
   * The same shards from examples already in memory (the dssync command's datasets), without the
   * DataFrame round trip: each executor cuts its shard from a broadcast of the block and checks it
   * as rows are checked. Turning Fashion-MNIST's 60,000 rows into a DataFrame, back into arrays and
   * through the shuffle took 6.5 s of a local[4] run on two cores.
   */
  public static JavaRDD<LabeledArrays> shard(JavaSparkContext jsc, Broadcast<LabeledArrays> data, int workers) {
    LabeledArrays block = data.value();
    if (block.size() < workers) {
      throw tooFewExamples(block.size(), workers);
    }
    List<Integer> ranks = java.util.stream.IntStream.range(0, workers).boxed().toList();
    JavaRDD<LabeledArrays> shards = jsc.parallelize(ranks, workers)
        .map(r -> checked(piece(data.value(), 0, r, workers), r, workers))
        .persist(StorageLevel.MEMORY_AND_DISK());
    shards.count(); // cut and check now, as the DataFrame path does
    return shards;
  }

  private static DsSyncException tooFewExamples(long total, int workers) {
    return DataErrors.badRecord("set", "it has " + total + " examples, fewer than the " + workers
        + " workers, so some worker would get an empty shard", "Use fewer workers or more data");
  }

  /** Cuts one input block into N pieces, piece r holding its examples with global index = r mod N. */
  static List<Piece> split(int partition, long offset, LabeledArrays block, int workers) {
    List<Piece> out = new ArrayList<>(workers);
    for (int r = 0; r < workers; r++) {
      out.add(new Piece(r, partition, piece(block, offset, r, workers)));
    }
    return out;
  }

  /** The examples of {@code block} (whose first has global index {@code offset}) with global index = r mod N. */
  private static LabeledArrays piece(LabeledArrays block, long offset, int r, int workers) {
    int first = (int) Math.floorMod(r - offset, (long) workers);
    int count = block.size() > first ? (block.size() - first + workers - 1) / workers : 0;
    int[] chosen = new int[count];
    for (int k = 0, i = first; k < count; k++, i += workers) {
      chosen[k] = i;
    }
    return block.select(chosen, count, "shard " + r + " (" + count + " examples)");
  }

  /** {@code shard} after the checks {@link DataFrames#collect} makes of each row; names the example's index. */
  private static LabeledArrays checked(LabeledArrays shard, int r, int workers) {
    RowPacker.check(shard, "in the training set", k -> (long) k * workers + r);
    return shard;
  }

  /**
   * A test split the driver holds, after the checks the training shards get: the driver evaluates it only after
   * the first stage, so without this a bad label there would fail the fit after a stage of training.
   */
  public static void checkTestSplit(LabeledArrays test) {
    RowPacker.check(test, "in the test split", k -> k);
  }

  static Iterator<LabeledArrays> concatenate(Iterator<Piece> it) {
    List<Piece> pieces = new ArrayList<>();
    it.forEachRemaining(pieces::add);
    pieces.sort(Comparator.comparingInt(p -> p.sourcePartition));
    return Collections.singletonList(LabeledArrays.concat(pieces.stream().map(Piece::data).toList())).iterator();
  }

  /** The records of ours Spark serializes while sharding (for the Kryo registrator). */
  public static final List<Class<? extends Record>> SERIALIZED_RECORDS = List.of(Piece.class);

  /** Examples of one input partition bound for one shard. */
  record Piece(int shard, int sourcePartition, LabeledArrays data) implements Serializable {}

  /** Sends key r to partition r. */
  static final class ShardPartitioner extends Partitioner {
    private final int n;

    ShardPartitioner(int n) {
      this.n = n;
    }

    @Override
    public int numPartitions() {
      return n;
    }

    @Override
    public int getPartition(Object key) {
      return (Integer) key;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ShardPartitioner other && other.n == n;
    }

    @Override
    public int hashCode() {
      return n;
    }
  }
}
