package io.dssync.bench.peer;

import io.dssync.launch.CommandFlags;
import io.dssync.bench.BenchMode;
import io.dssync.bench.train.TrainBenchArgs;
import io.dssync.bench.train.TrainBenchConfigs;
import io.dssync.bench.train.TrainBenchCurve;
import io.dssync.bench.train.TrainBenchOutcome;
import io.dssync.bench.train.TrainBenchRunner;
import io.dssync.data.DatasetSplits;
import io.dssync.errors.Errors;
import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainerConfigBuilder;
import io.dssync.train.TrainingData;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * {@code dssync bench peer}: DS-Sync ({@code mlp}, random g = 2, and full) against Spark MLlib's
 * MultilayerPerceptronClassifier with the same layer sizes, on the same SparkSession (so the same
 * executors) and the same Fashion-MNIST examples: time to a target test accuracy for each, and
 * the ratio.
 */
public final class PeerBench implements BenchMode {
  static final double DEFAULT_TARGET = 0.82;
  static final int DEFAULT_STEPS_PER_STAGE = 20;
  static final Map<String, String> FLAGS = TrainBenchArgs.merged(TrainBenchArgs.COMMON, TrainBenchArgs.orderedMap(
      "--mllib-max-iter", "MLlib iterations in all (default 100)",
      "--mllib-chunk-iter", "MLlib iterations per fit; the test set is evaluated after each (default 10)",
      "--mllib-solver", "MLlib solver: l-bfgs (MLlib's default) or gd (default l-bfgs)",
      "--mllib-block-size", "MLlib blockSize: rows stacked per matrix multiply (default 128, MLlib's default)",
      "--mllib-reference", "true|false: also one uninterrupted MLlib fit of the same iterations, to measure"
          + " what the chunking costs (default true)",
      "--warm-up", "true|false: one short untimed run of each system first (default true)"));
  private static final Map<Setting<?>, String> REFUSED = Map.of(
      TrainerConfig.MODEL, "the peer comparison uses mlp, the model with MLlib's layer shape",
      TrainerConfig.SCHEDULE, "DS-Sync runs as random g=2 and as full",
      TrainerConfig.GROUP_SIZE, "DS-Sync runs as random g=2 and as full",
      TrainerConfig.GLOBAL_AVERAGE_PERIOD, "DS-Sync runs without periodic global averages",
      TrainerConfig.EVAL_EVERY, "every stage is evaluated so the time to the target is resolved per stage",
      TrainerConfig.RESUME, "every run starts from its seeded model",
      TrainerConfig.CHECKPOINT_DIR, "checkpoint writes would count as training time");
  static final List<String> OURS = List.of(TrainBenchConfigs.FULL, "random-g2");

  /** What to run and where to write. */
  record Plan(TrainBenchArgs args, Supplier<TrainerConfigBuilder> base, PeerBenchMllib.Settings mllib,
      boolean reference, boolean warmUp, String network, double target, Path out, String commandLine) {}

  @Override
  public String name() {
    return "peer";
  }

  @Override
  public String summary() {
    return "time to a target accuracy: DS-Sync mlp vs Spark MLlib MultilayerPerceptronClassifier (784-256-128-10)";
  }

  @Override
  public String usage() {
    return TrainBenchArgs.usage("Usage: dssync bench peer [flags]\n"
        + "Trains DS-Sync's mlp (random g=2, and full) and MLlib's MultilayerPerceptronClassifier with the same layer\n"
        + "sizes on the same SparkSession and data; writes <out>/peer/peer.csv, peer-curve.csv, accuracy-vs-time.png\n"
        + "and summary.md. Defaults: --workers 4 --epochs 2 --steps-per-stage " + DEFAULT_STEPS_PER_STAGE
        + " --target-accuracy " + DEFAULT_TARGET + "; MLlib uses one partition per worker.", FLAGS, "");
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) {
    Plan plan = plan(args, "dssync bench peer " + String.join(" ", args));
    return plan.args().runOnSession(plan.base().get().build(), (spark, data) -> measure(spark, data, plan, out, err));
  }

  public static Plan plan(String[] args, String commandLine) {
    TrainBenchArgs parsed = TrainBenchArgs.parse(args, TrainBenchArgs.names(FLAGS), REFUSED);
    Supplier<TrainerConfigBuilder> base = () -> parsed.trainer(Map.of(
        TrainerConfig.STEPS_PER_STAGE, String.valueOf(DEFAULT_STEPS_PER_STAGE)))
        .set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.EVAL_EVERY, 1);
    TrainerConfig probe = base.get().build();
    if (probe.workers() < 2) {
      throw Errors.invalidSetting("--workers", probe.workers(), "the peer comparison runs DS-Sync with g = 2",
          "Pass --workers 2 or more.");
    }
    CommandFlags f = parsed.flags();
    int maxIter = f.integer("--mllib-max-iter", 100, 1, 100_000);
    int chunk = f.integer("--mllib-chunk-iter", 10, 1, maxIter);
    String solver = f.string("--mllib-solver", "l-bfgs");
    if (!solver.equals("l-bfgs") && !solver.equals("gd")) {
      throw Errors.invalidSetting("--mllib-solver", solver, "must be l-bfgs or gd", "Pass --mllib-solver l-bfgs.");
    }
    PeerBenchMllib.Settings mllib = new PeerBenchMllib.Settings(maxIter, chunk, solver,
        f.integer("--mllib-block-size", 128, 1, 1 << 20), probe.get(TrainerConfig.SEED));
    return new Plan(parsed, base, mllib, f.bool("--mllib-reference", true),
        f.bool("--warm-up", true),
        parsed.network(), parsed.targetAccuracy(DEFAULT_TARGET), parsed.out(), commandLine);
  }

  static PeerBenchReport measure(SparkSession spark, DatasetSplits data, Plan plan, PrintStream out,
      PrintStream err) {
    TrainerConfig probe = plan.base().get().build();
    List<TrainBenchConfigs.Sync> syncs = new ArrayList<>();
    for (String name : OURS) {
      syncs.add(TrainBenchConfigs.named(name, probe.workers(), 0));
    }
    if (plan.warmUp()) {
      TrainBenchRunner.warmUp(spark, data, syncs, plan.base(), err);
    }
    TrainingData training = TrainingData.of(spark, data, probe.workers());
    List<TrainBenchOutcome> ours = new ArrayList<>();
    for (TrainBenchConfigs.Sync sync : syncs) {
      ours.add(TrainBenchRunner.fit(spark, training, sync, sync.config(plan.base().get()), "peer", err));
    }
    PeerBenchMllib mllib = new PeerBenchMllib(spark, data.train(), data.test(), probe.workers(), plan.mllib());
    try {
      if (plan.warmUp()) {
        long t0 = System.nanoTime();
        mllib.warmUp();
        err.printf(Locale.ROOT, "[bench peer] MLlib warm-up (1 iteration, not measured) took %.1f s%n",
            (System.nanoTime() - t0) / 1e9);
      }
      PeerBenchMllib.Chunked chunked = mllib.runChunked(err);
      TrainBenchCurve.Point continuous = plan.reference() ? mllib.runContinuous(chunked.iterations(), err) : null;
      PeerBenchReport report = PeerBenchReport.write(plan, data, ours, mllib.layers(), chunked, continuous);
      out.print(report.consoleText());
      return report;
    } finally {
      mllib.release();
    }
  }
}
