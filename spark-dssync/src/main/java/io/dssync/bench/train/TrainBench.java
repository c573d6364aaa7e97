package io.dssync.bench.train;

import io.dssync.bench.BenchMode;
import io.dssync.data.DatasetSplits;
import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingData;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * {@code dssync bench train}: time to a target test accuracy for the same model, data and seed
 * under every synchronization configuration ({@link TrainBenchConfigs}), run back to back in one
 * process on one SparkSession, each compared with {@code full} from the same run.
 */
public final class TrainBench implements BenchMode {
  static final double DEFAULT_TARGET = 0.85;
  static final int DEFAULT_STEPS_PER_STAGE = 20;
  static final int DEFAULT_GLOBAL_EVERY = 5;
  static final Map<String, String> FLAGS = TrainBenchArgs.merged(TrainBenchArgs.COMMON, TrainBenchArgs.orderedMap(
      "--configs", "Comma-separated subset of " + TrainBenchConfigs.ALL_NAMES + ", or all (default all);"
          + " full always runs",
      "--global-every", "H: steps between global averages of local-sgd and group-avg-g2 (default "
          + DEFAULT_GLOBAL_EVERY + ")",
      "--warm-up", "true|false: one short untimed run first so no configuration pays the JVM/engine warm-up"
          + " (default true)"));
  /** The benchmark varies or fixes these itself. */
  private static final Map<Setting<?>, String> REFUSED = Map.of(
      TrainerConfig.SCHEDULE, "every configuration sets its schedule (choose them with --configs)",
      TrainerConfig.GROUP_SIZE, "every configuration sets its group size",
      TrainerConfig.GLOBAL_AVERAGE_PERIOD, "use --global-every for local-sgd and group-avg-g2",
      TrainerConfig.EVAL_EVERY, "every stage is evaluated so the time to the target is resolved per stage",
      TrainerConfig.RESUME, "every configuration starts from the same seeded model",
      TrainerConfig.CHECKPOINT_DIR, "checkpoint writes would count as training time");

  /** What to run: the configurations, the trainer settings they share, where to write. */
  record Plan(TrainBenchArgs args, List<TrainBenchConfigs.Sync> configs, List<String> skipped, Supplier<TrainerConfig.Builder> base,
      String network, double target, boolean warmUp, Path out, String commandLine, String trainerSettings) {}

  @Override
  public String name() {
    return "train";
  }

  @Override
  public String summary() {
    return "time to a target accuracy: full vs DS-Sync random/butterfly g=2,4, local SGD, group averaging";
  }

  @Override
  public String usage() {
    return TrainBenchArgs.usage("Usage: dssync bench train [flags]\n"
        + "Trains the same model (default cnn), data (Fashion-MNIST) and seed under each configuration, one after\n"
        + "another on one SparkSession, evaluating the test set after every stage; writes <out>/train/runs.csv,\n"
        + "curve.csv, accuracy-vs-time.png and summary.md. Defaults: --workers 4 --model cnn --epochs 2\n"
        + "--steps-per-stage " + DEFAULT_STEPS_PER_STAGE + " --target-accuracy " + DEFAULT_TARGET + ".",
        FLAGS, "");
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) {
    Plan plan = plan(args, "dssync bench train " + String.join(" ", args));
    TrainerConfig first = plan.configs().get(0).config(plan.base().get());
    return plan.args().runOnSession(first, (spark, data) -> measure(spark, data, plan, out, err));
  }

  /** Parses and checks the flags, before anything is started. */
  static Plan plan(String[] args, String commandLine) {
    TrainBenchArgs parsed = TrainBenchArgs.parse(args, TrainBenchArgs.names(FLAGS), REFUSED);
    Supplier<TrainerConfig.Builder> base = () -> parsed.trainer(Map.of(
        TrainerConfig.STEPS_PER_STAGE, String.valueOf(DEFAULT_STEPS_PER_STAGE)))
        .set(TrainerConfig.EVAL_EVERY, 1);
    int workers = base.get().build().workers();
    int h = parsed.flags().integer("--global-every", DEFAULT_GLOBAL_EVERY, 1, Integer.MAX_VALUE);
    List<String> skipped = new ArrayList<>();
    List<TrainBenchConfigs.Sync> configs = TrainBenchConfigs.choose(parsed.flags().string("--configs", "all"),
        base.get(), workers, h, skipped);
    return new Plan(parsed, configs, skipped, base, parsed.network(), parsed.targetAccuracy(DEFAULT_TARGET),
        TrainBenchArgs.bool(parsed.flags(), "--warm-up", true), parsed.out(), commandLine, parsed.trainerSettingsText());
  }

  /** Runs every configuration of {@code plan} on {@code spark} and writes the results folder. */
  static TrainBenchReport measure(SparkSession spark, DatasetSplits data, Plan plan, PrintStream out,
      PrintStream err) {
    if (plan.warmUp()) {
      TrainBenchRunner.warmUp(spark, data, plan.configs().get(0).config(plan.base().get()), err);
    }
    TrainerConfig any = plan.configs().get(0).config(plan.base().get());
    TrainingData training = TrainingData.of(spark, data, any.workers());
    List<TrainBenchOutcome> outcomes = new ArrayList<>();
    for (TrainBenchConfigs.Sync sync : plan.configs()) {
      outcomes.add(TrainBenchRunner.fit(spark, training, sync, sync.config(plan.base().get()), "train", err));
    }
    TrainBenchReport report = TrainBenchReport.write(plan, data, outcomes);
    out.print(report.consoleText());
    return report;
  }
}
