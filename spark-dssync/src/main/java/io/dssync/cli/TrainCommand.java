package io.dssync.cli;

import io.dssync.data.DatasetSplits;
import io.dssync.errors.ModelErrors;
import io.dssync.launch.CommandFlags;
import io.dssync.launch.TrainingArgs;
import io.dssync.metrics.MetricsLog;
import io.dssync.metrics.ProgressListener;
import io.dssync.metrics.SparkUiMetrics;
import io.dssync.metrics.StageMetrics;
import io.dssync.ml.TrainedModels;
import io.dssync.models.TorchScriptModel;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingData;
import io.dssync.train.TrainingResult;
import io.dssync.spark.DriverBlockReports;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/** {@code dssync train}: parse flags, load the dataset, train, print a summary. */
final class TrainCommand {
  private TrainCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) {
    if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
      out.print(Usage.train());
      return 0;
    }
    TrainingArgs run = TrainingArgs.of(withPreset(CommandFlags.pairs(args)), RunOption.flags(), Map.of());
    TrainerConfig config = run.trainer(Map.of()).build();
    String dataset = run.flags().string(RunOption.DATASET.flag, "fashion-mnist");
    boolean table = TableData.given(run.flags());
    if (!config.hasOwnModel() && !table) {
      DatasetChoice.requireModelFits(dataset, config.get(TrainerConfig.MODEL));
    }
    String resume = config.get(TrainerConfig.RESUME);
    if (ResumeDir.isLocal(resume)) {
      ResumeDir.check(resume, new Configuration()).ifPresent(err::println);
    }
    config.ignoredSettings().forEach(line -> err.println("[dssync] warning: " + line));
    // Under spark-submit without --master, train on the master spark-submit was given.
    String master = run.master(config);
    DatasetSplits used = table ? null : run.limited(DatasetChoice.load(dataset));
    if (table) {
      err.printf(Locale.ROOT, "[dssync] table %s; %s on %s%n", run.flags().string(RunOption.DATA.flag, ""),
          config.describe(), master);
    } else {
      err.printf(Locale.ROOT, "[dssync] %s: %d training / %d test examples; %s on %s%n", used.name(),
          used.train().size(), used.test().size(), config.describe(), master);
    }
    return run.onSession(config, spark -> {
      if (!ResumeDir.isLocal(resume)) {
        ResumeDir.check(resume, spark.sparkContext().hadoopConfiguration()).ifPresent(err::println);
      }
      DriverBlockReports reports = new DriverBlockReports();
      spark.sparkContext().addSparkListener(reports);
      TrainingData data = table ? TableData.load(spark, run.flags(), config)
          : TrainingData.of(spark, used, config.workers());
      TrainingResult result = trainWithProgress(spark, config, data, run.flags().string(RunOption.METRICS_OUT.flag, ""),
          err);
      String saveTo = run.flags().string(RunOption.SAVE_MODEL.flag, "");
      if (!saveTo.isEmpty()) {
        save(result, saveTo, err);
      }
      out.printf(Locale.ROOT,
          "dssync train: schedule=%s g=%d workers=%d steps=%d wall=%.1fs final_test_accuracy=%.4f"
              + " final_test_metric=%s:%.4f sync_share=%.3f sync_ms_per_step=%.2f sync_wait_ms_per_step=%.2f"
              + " compute_ms_per_step=%.2f samples_per_s=%.0f driver_block_reports=%d%n",
          config.get(TrainerConfig.SCHEDULE), config.groupSize(), config.workers(), result.stepsReached(),
          result.wallSeconds(), result.finalTestAccuracy(), result.finalTestMetricName(),
          result.finalTestMetric(), result.meanSyncShare(),
          StageMetrics.meanOverStages(result.history(), StageMetrics::syncMsPerStep),
          StageMetrics.meanOverStages(result.history(), StageMetrics::waitMsPerStep),
          StageMetrics.meanOverStages(result.history(), StageMetrics::computeMsPerStep),
          StageMetrics.meanOverStages(result.history(), StageMetrics::samplesPerSecond),
          reports.count());
      return 0;
    });
  }

  /** Progress bar on a terminal (plain lines otherwise), Spark UI accumulators, optional metrics file. */
  private static TrainingResult trainWithProgress(SparkSession spark, TrainerConfig config, TrainingData data,
      String metricsOut, PrintStream err) {
    boolean terminal = System.console() != null;
    // Off a terminal a stage's line can be minutes apart: the heartbeat keeps logs from looking hung.
    Heartbeat heartbeat = terminal ? null : Heartbeat.start(err);
    ProgressListener progress = ProgressBar.choose(terminal, err).andThen(new SparkUiMetrics(spark.sparkContext()));
    if (heartbeat != null) {
      progress = progress.andThen(heartbeat);
    }
    try (heartbeat; MetricsLog log = metricsOut == null || metricsOut.isEmpty() ? null
        : MetricsLog.open(metricsOut, config.runHeader("dssync-train"), spark.sparkContext().hadoopConfiguration())) {
      DsSyncTrainer trainer = new DsSyncTrainer(spark, config)
          .withProgress(log == null ? progress : progress.andThen(log));
      TrainingResult result = trainer.fit(data);
      if (result.resumedAtStep() >= 0 || result.skippedRecords() > 0 || !result.retries().isEmpty()) {
        err.printf(Locale.ROOT, "[dssync] resumed_at_step=%d skipped_bad_records=%d retried_stage_attempts=%d%n",
            result.resumedAtStep(), result.skippedRecords(), result.retries().size());
      }
      if (result.stoppedEarly()) {
        err.println("[dssync] " + result.stop().describe());
      }
      return result;
    }
  }

  /** {@code --save-model}: the Spark ML model directory, with model.pt for a model trained from a TorchScript file. */
  private static void save(TrainingResult result, String dir, PrintStream err) {
    try {
      TrainedModels.of(result).write().overwrite().save(dir);
    } catch (IOException e) {
      throw ModelErrors.modelFile(dir, "cannot be written: " + e.getMessage());
    }
    err.printf(Locale.ROOT, "[dssync] saved the model to %s%s%n", dir,
        result.model().spec().modelSource() instanceof TorchScriptModel ? " (model.pt: for torch.jit.load)" : "");
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
}
