package io.dssync.cli;

import io.dssync.data.DatasetSplits;
import io.dssync.data.LabeledArrays;
import io.dssync.errors.Errors;
import io.dssync.metrics.MetricsLog;
import io.dssync.metrics.ProgressListener;
import io.dssync.metrics.SparkUiMetrics;
import io.dssync.train.DsSyncTrainer;
import io.dssync.launch.SparkSessions;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingData;
import io.dssync.train.TrainingResult;
import io.dssync.transport.DriverBlockReports;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/** {@code dssync train}: parse flags, load the dataset, train, print a summary. */
final class TrainCommand {
  private TrainCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) {
    Map<String, String> given = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("--help") || flag.equals("-h")) {
        out.print(Usage.text());
        return 0;
      }
      if (i + 1 >= args.length) {
        throw Errors.invalidSetting(flag, "(nothing)", "a flag needs a value", "Write " + flag + " VALUE.");
      }
      given.put(flag, args[++i]);
    }
    TrainerConfig.Builder builder = TrainerConfig.builder();
    Map<RunOption, String> run = new EnumMap<>(RunOption.class);
    for (Map.Entry<String, String> f : withPreset(given).entrySet()) {
      RunOption option = RunOption.find(f.getKey());
      if (option != null) {
        run.put(option, f.getValue());
      } else {
        builder.set(f.getKey(), f.getValue());
      }
    }
    TrainerConfig config = builder.build();
    // Under spark-submit without --master, train on the master spark-submit was given.
    String master = run.getOrDefault(RunOption.MASTER, SparkSessions.submittedMaster().orElse(
        "local[" + config.workers() * config.get(TrainerConfig.THREADS_PER_WORKER) + "]"));
    int trainLimit = nonNegative(RunOption.TRAIN_LIMIT, run);
    int testLimit = nonNegative(RunOption.TEST_LIMIT, run);
    DatasetSplits splits = DatasetChoice.load(run.getOrDefault(RunOption.DATASET, "fashion-mnist"));
    LabeledArrays trainSet = trainLimit > 0 ? splits.train().head(trainLimit) : splits.train();
    LabeledArrays testSet = testLimit > 0 ? splits.test().head(testLimit) : splits.test();
    err.printf(Locale.ROOT, "[dssync] %s: %d training / %d test examples; %s on %s%n", splits.name(),
        trainSet.size(), testSet.size(), config.describe(), master);
    SparkSession spark = SparkSessions.forMaster(master, config);
    try {
      DatasetSplits used = new DatasetSplits(trainSet, testSet, splits.channels(), splits.height(),
          splits.width(), splits.name(), splits.vocabSize());
      DriverBlockReports reports = new DriverBlockReports();
      spark.sparkContext().addSparkListener(reports);
      TrainingResult result = trainWithProgress(spark, config, used, run.get(RunOption.METRICS_OUT), err);
      out.printf(Locale.ROOT,
          "dssync train: schedule=%s g=%d workers=%d steps=%d wall=%.1fs final_test_accuracy=%.4f"
              + " final_test_metric=%s:%.4f sync_share=%.3f sync_ms_per_step=%.2f compute_ms_per_step=%.2f samples_per_s=%.0f"
              + " driver_block_reports=%d%n",
          config.get(TrainerConfig.SCHEDULE), config.groupSize(), config.workers(), result.totalSteps(),
          result.wallSeconds(), result.finalTestAccuracy(), result.finalTestMetricName(),
          result.finalTestMetric(), result.meanSyncShare(),
          result.history().stream().mapToDouble(m -> m.syncMsPerStep()).average().orElse(0),
          result.history().stream().mapToDouble(m -> m.computeMsPerStep()).average().orElse(0),
          result.history().stream().mapToDouble(m -> m.samplesPerSecond()).average().orElse(0),
          reports.count());
      return 0;
    } finally {
      spark.stop();
    }
  }

  /** Progress bar on a terminal (plain lines otherwise), Spark UI accumulators, optional metrics file. */
  private static TrainingResult trainWithProgress(SparkSession spark, TrainerConfig config, DatasetSplits used,
      String metricsOut, PrintStream err) {
    ProgressListener progress = ProgressBar.choose(System.console() != null, err)
        .andThen(new SparkUiMetrics(spark.sparkContext()));
    try (MetricsLog log = metricsOut == null || metricsOut.isEmpty() ? null
        : MetricsLog.open(metricsOut, config.runHeader("dssync-train"), spark.sparkContext().hadoopConfiguration())) {
      DsSyncTrainer trainer = new DsSyncTrainer(spark, config)
          .withProgress(log == null ? progress : progress.andThen(log));
      TrainingResult result = trainer.fit(TrainingData.of(spark, used, config.workers()));
      if (result.resumedAtStep() >= 0 || result.skippedRecords() > 0 || !result.retries().isEmpty()) {
        err.printf(Locale.ROOT, "[dssync] resumed_at_step=%d skipped_bad_records=%d retried_stage_attempts=%d%n",
            result.resumedAtStep(), result.skippedRecords(), result.retries().size());
      }
      return result;
    }
  }

  /** The preset's flags (when --preset is given) overlaid by the flags given explicitly. */
  static Map<String, String> withPreset(Map<String, String> given) {
    String name = given.get(RunOption.PRESET.flag);
    if (name == null) {
      return given;
    }
    Map<String, String> merged = new LinkedHashMap<>(Preset.find(name).flags());
    merged.putAll(given);
    merged.remove(RunOption.PRESET.flag);
    return merged;
  }

  private static int nonNegative(RunOption option, Map<RunOption, String> run) {
    String text = run.getOrDefault(option, "0");
    try {
      int v = Integer.parseInt(text);
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw Errors.invalidSetting(option.flag, text, "must be an integer >= 0", option.doc + ".");
  }
}
