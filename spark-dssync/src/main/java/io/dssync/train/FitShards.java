package io.dssync.train;

import io.dssync.data.LabeledArrays;
import io.dssync.data.Labels;
import io.dssync.data.frame.DataFrames;
import io.dssync.data.frame.HoldOut;
import io.dssync.data.frame.ShardedData;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.Errors;
import io.dssync.errors.SparkFailures;
import io.dssync.schedule.SchedulePlan;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fit's data once cut: the worker pool that holds the training shards, how many examples they hold, the examples
 * evaluated on (the test split or the held-out ones; null when there are none) and the input rows skipped as bad
 * records.
 */
record FitShards(WorkerPool pool, long examples, LabeledArrays test, long skippedRecords) {
  private static final Logger LOG = LoggerFactory.getLogger(FitShards.class);

  /** Cuts {@code data} into one shard per worker of a pool that plans its schedule with {@code plans}. */
  static FitShards cut(SparkContext sc, TrainerConfig config, TrainingData data, Labels labels,
      IntFunction<SchedulePlan> plans) {
    boolean skipBad = "skip".equals(config.get(TrainerConfig.BAD_RECORDS));
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
    try {
      Dataset<Row> input = data.frame();
      long inputRows = 0;
      if (skipBad) {
        inputRows = input.count();
        input = DataFrames.dropBadRecords(input, data.featuresCol(), data.labelCol(), data.featureSize(), labels);
      }
      Dataset<Row> frame = input;
      // Examples already in this JVM are cut into shards directly (same shards, without reading the
      // rows back); skipping bad records needs the frame's row-by-row path. A hold-out is taken while
      // the frame's shards are cut; the first cut's is kept (a re-shard holds out the same examples).
      AtomicReference<LabeledArrays> heldOut = new AtomicReference<>();
      IntFunction<JavaRDD<LabeledArrays>> cutting = data.inMemory() != null && !skipBad
          ? size -> ShardedData.shard(jsc, data.inMemory(), size)
          : size -> {
            ShardedData.Cut cut = ShardedData.shard(frame, data.featuresCol(), data.labelCol(), data.featureSize(),
                labels, size, data.holdOut());
            heldOut.compareAndSet(null, cut.heldOut());
            return cut.training();
          };
      IntFunction<JavaRDD<LabeledArrays>> sharding = size -> {
        try {
          return cutting.apply(size);
        } finally {
          dropExecutorCopies(data.inMemory());
        }
      };
      WorkerPool pool = new WorkerPool(WorkerPool.Slots.of(sc), config.workers(), config.minWorkers(),
          Duration.ofMillis(config.get(TrainerConfig.SLOT_WAIT_MS)), sharding, plans);
      long examples = pool.shards().map(LabeledArrays::size).reduce(Integer::sum);
      LabeledArrays test = data.holdOut() == null ? data.test()
          : requireHeldOut(heldOut.get(), data.holdOut(), examples);
      long skipped = skipBad ? inputRows - examples - (data.holdOut() == null ? 0 : test.size()) : 0;
      if (skipped > 0) {
        LOG.warn("Skipped {} of {} input rows as bad records (--bad-records skip); executor logs show the first"
            + " few per partition", skipped, inputRows);
      }
      return new FitShards(pool, examples, test, skipped);
    } catch (DsSyncException e) {
      throw e;
    } catch (Exception e) { // SparkException is checked but thrown undeclared from Scala
      // Bad records are found on executors; their DsSyncException reaches us as text.
      throw SparkFailures.fromTaskFailure(e, "Cutting the training data into shards");
    }
  }

  /**
   * Once shards are cut (and cached), the executors drop their copies of the examples in memory
   * that both paths read them from, if any. Kept, every executor held the whole training set next to
   * its shard for the rest of the fit (Fashion-MNIST: 188 MB per executor, which kept the heap's old
   * generation above G1's marking threshold, so every large allocation at a stage boundary started a
   * concurrent cycle: 26-29 per executor in one epoch, against 5 without the copy). The driver keeps
   * the block; a re-shard or a lost shard fetches it again.
   */
  private static void dropExecutorCopies(Broadcast<LabeledArrays> inMemory) {
    if (inMemory != null) {
      inMemory.unpersist(true);
    }
  }

  /** The held-out examples, unless the hold-out caught none of them (nothing to validate on). */
  private static LabeledArrays requireHeldOut(LabeledArrays heldOut, HoldOut holdOut, long kept) {
    if (heldOut.size() == 0) {
      throw Errors.invalidSetting("validationFraction", holdOut.fraction(), "it held out none of the "
          + kept + " examples", "Raise validationFraction or fit on more rows.");
    }
    return heldOut;
  }
}
