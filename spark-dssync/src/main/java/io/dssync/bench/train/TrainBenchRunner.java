package io.dssync.bench.train;

import io.dssync.data.DatasetSplits;
import io.dssync.data.LabeledArrays;
import io.dssync.data.frame.DataFrames;
import io.dssync.metrics.ProgressLine;
import io.dssync.metrics.ProgressListener;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingData;
import java.io.PrintStream;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;

/** Runs DS-Sync configurations one after another on one SparkSession, printing a line per stage. */
public final class TrainBenchRunner {
  private TrainBenchRunner() {}

  public static TrainBenchOutcome fit(SparkSession spark, TrainingData data, TrainBenchConfigs.Sync sync,
      TrainerConfig config, String tag, PrintStream err) {
    err.printf(Locale.ROOT, "[bench %s] %s: schedule=%s g=%d H=%d workers=%d%n", tag, sync.name(),
        sync.schedule().cliName(), config.groupSize(), sync.globalEvery(), config.workers());
    ProgressListener progress = (m, steps, stages, total) -> err.printf(Locale.ROOT,
        "[bench %s] %s stage %d/%d step %d/%d | %.2f s | compute %.1f ms/step sync %.1f ms/step%s | test acc %.4f%n",
        tag, sync.name(), m.stage() + 1, stages, m.endStep(), total, m.wallSeconds(), m.computeMsPerStep(),
        m.syncMsPerStep(), ProgressLine.stageEnd(m), m.testAccuracy());
    DsSyncTrainer trainer = new DsSyncTrainer(spark, config).withProgress(progress);
    return TrainBenchOutcome.of(sync, config, trainer.fit(data));
  }

  /**
   * A short untimed run before the measured ones: the first configuration would otherwise also pay
   * for loading the engine and warming the JIT in every executor, which favours whatever runs later.
   */
  public static void warmUp(SparkSession spark, DatasetSplits splits, TrainerConfig config, PrintStream err) {
    int n = config.workers();
    int examples = Math.min(splits.train().size(), 2 * n * config.get(TrainerConfig.BATCH_SIZE));
    LabeledArrays head = splits.train().head(examples);
    TrainingData data = new TrainingData(DataFrames.toDataFrame(spark, head, n), DataFrames.FEATURES,
        DataFrames.LABEL, splits.channels(), splits.height(), splits.width(), head.numClasses(), null);
    long t0 = System.nanoTime();
    new DsSyncTrainer(spark, config).withProgress(ProgressListener.silent()).fit(data);
    err.printf(Locale.ROOT, "[bench] warm-up (%d examples, not measured) took %.1f s%n", examples,
        (System.nanoTime() - t0) / 1e9);
  }
}
