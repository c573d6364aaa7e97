package io.dssync.bench.train;

import io.dssync.bench.PythonPeer;
import io.dssync.bench.BenchMode;
import io.dssync.data.DatasetSplits;
import io.dssync.data.FashionMnist;
import io.dssync.errors.Errors;
import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainerConfigBuilder;
import io.dssync.train.TrainingData;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;

/**
 * {@code dssync bench train}: time to a target test accuracy for the same model, data and seed
 * under every synchronization configuration ({@link TrainBenchConfigs}), run back to back in one
 * process on one SparkSession, each compared with {@code full} from the same run; with
 * {@code --peer torch-ddp} also with PyTorch DDP on the same task ({@link TrainBenchTorchDdp}), run
 * after them.
 */
public final class TrainBench implements BenchMode {
  static final double DEFAULT_TARGET = 0.85;
  static final int DEFAULT_STEPS_PER_STAGE = 20;
  static final int DEFAULT_GLOBAL_EVERY = 5;
  /** More rounds than this is a typo rather than a benchmark (each round trains every configuration). */
  static final int MAX_ROUNDS = 20;
  static final Map<String, String> FLAGS = TrainBenchArgs.merged(TrainBenchArgs.COMMON, TrainBenchArgs.orderedMap(
      "--configs", "Comma-separated subset of " + TrainBenchConfigs.ALL_NAMES + ", or all (default all);"
          + " full always runs; a name ending in -direct or -ring (full-ring) runs that configuration with that"
          + " --all-reduce; diloco and noloco (named only) are local-sgd with DiLoCo's outer Nesterov step"
          + " (0.7, 0.9) and random-g2 with that step per replica at group averages",
      "--global-every", "H: steps between global averages of local-sgd, diloco and group-avg-g2 (default "
          + DEFAULT_GLOBAL_EVERY + ")",
      "--warm-up", "true|false: an untimed run of each configuration first, so no configuration pays the"
          + " JVM/engine warm-up of its code paths (default true)",
      "--rounds", "R: run the configurations R times, in the given order in odd rounds and in reverse (full"
          + " last) in even ones, so a machine that speeds up or slows down during the benchmark weighs on"
          + " every configuration alike; each round's ratios are against that round's full, and the target"
          + " check reads the median over rounds (default 1)",
      "--peer", "none (default) or " + TrainBenchTorchDdp.NAME + ": after ours, train the cnn with PyTorch DDP"
          + " (Gloo, same workers, data, batch, SGD, schedule, seed) and print every configuration's time to the"
          + " target as a ratio to DDP's"));
  /** The benchmark varies or fixes these itself. */
  private static final Map<Setting<?>, String> REFUSED = Map.of(
      TrainerConfig.SCHEDULE, "every configuration sets its schedule (choose them with --configs)",
      TrainerConfig.GROUP_SIZE, "every configuration sets its group size",
      TrainerConfig.GLOBAL_AVERAGE_PERIOD, "use --global-every for local-sgd and group-avg-g2",
      TrainerConfig.EVAL_EVERY, "every stage is evaluated so the time to the target is resolved per stage",
      TrainerConfig.RESUME, "every configuration starts from the same seeded model",
      TrainerConfig.CHECKPOINT_DIR, "checkpoint writes would count as training time");

  /** What to run: the configurations, the trainer settings they share, where to write. */
  record Plan(TrainBenchArgs args, List<TrainBenchConfigs.Sync> configs, List<String> skipped,
      Supplier<TrainerConfigBuilder> base, String network, double target, boolean warmUp, boolean torchDdp, Path out,
      String commandLine, String trainerSettings, int rounds) {}

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
        + "--steps-per-stage " + DEFAULT_STEPS_PER_STAGE + " --target-accuracy " + DEFAULT_TARGET + ". With --peer\n"
        + TrainBenchTorchDdp.NAME + " the tables and chart get a " + TrainBenchTorchDdp.NAME + " row and curve, and the"
        + " console a ratio line per configuration.",
        FLAGS, "");
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) {
    Plan plan = plan(args, "dssync bench train " + String.join(" ", args));
    // Before any Spark work: a missing PyTorch should not cost a whole measurement first.
    PythonPeer python = plan.torchDdp() ? PythonPeer.find(TrainBenchTorchDdp.NAME) : null;
    TrainerConfig first = plan.configs().get(0).config(plan.base().get());
    Ours ours = plan.args().onSession(first, (spark, data) -> new Ours(data, runOurs(spark, data, plan, err)));
    TrainBenchTorchDdp.Run ddp = null;
    if (python != null) { // after the session stopped: the peer gets the cores to itself, as ours had them
      err.printf(Locale.ROOT, "[bench train] the %s peer: %d processes on 127.0.0.1%n",
          TrainBenchTorchDdp.NAME, first.workers());
      ddp = TrainBenchTorchDdp.run(python, first, ours.data(),
          FashionMnist.cachedFiles(FashionMnist.defaultCacheDir()));
      long oursSteps = ours.outcomes().get(0).result().totalSteps();
      if (ddp.steps() != oursSteps) {
        throw new IllegalStateException("the " + TrainBenchTorchDdp.NAME + " peer ran " + ddp.steps()
            + " steps and ours " + oursSteps + ": they did not train on the same data");
      }
    }
    report(plan, ours.data(), ours.outcomes(), ddp, out);
    return 0;
  }

  private record Ours(DatasetSplits data, List<TrainBenchOutcome> outcomes) {}

  /** Parses and checks the flags, before anything is started. */
  static Plan plan(String[] args, String commandLine) {
    TrainBenchArgs parsed = TrainBenchArgs.parse(args, TrainBenchArgs.names(FLAGS), REFUSED);
    Supplier<TrainerConfigBuilder> base = () -> parsed.trainer(Map.of(
        TrainerConfig.STEPS_PER_STAGE, String.valueOf(DEFAULT_STEPS_PER_STAGE)))
        .set(TrainerConfig.EVAL_EVERY, 1);
    int workers = base.get().build().workers();
    int h = parsed.flags().integer("--global-every", DEFAULT_GLOBAL_EVERY, 1, Integer.MAX_VALUE);
    List<String> skipped = new ArrayList<>();
    List<TrainBenchConfigs.Sync> configs = TrainBenchConfigs.choose(parsed.flags().string("--configs", "all"),
        base.get(), workers, h, skipped);
    String peer = parsed.flags().string("--peer", "none");
    if (!TrainBenchTorchDdp.PEERS.contains(peer)) {
      throw Errors.unknownName("--peer", peer, TrainBenchTorchDdp.PEERS.toArray());
    }
    boolean torchDdp = peer.equals(TrainBenchTorchDdp.NAME);
    if (torchDdp) {
      TrainBenchTorchDdp.requireSupported(base.get().build());
    }
    return new Plan(parsed, configs, skipped, base, parsed.network(), parsed.targetAccuracy(DEFAULT_TARGET),
        parsed.flags().bool("--warm-up", true), torchDdp, parsed.out(), commandLine,
        parsed.trainerSettingsText(), parsed.flags().integer("--rounds", 1, 1, MAX_ROUNDS));
  }

  /** Runs every configuration of {@code plan} on {@code spark} and writes the results folder (no peer). */
  static TrainBenchReport measure(SparkSession spark, DatasetSplits data, Plan plan, PrintStream out,
      PrintStream err) {
    return report(plan, data, runOurs(spark, data, plan, err), null, out);
  }

  /**
   * Every configuration of {@code plan}, one after another on {@code spark}, round after round:
   * {@code full} first in odd rounds, last in even ones. Returned round by round, each round in
   * the configurations' order ({@code full} first).
   */
  static List<TrainBenchOutcome> runOurs(SparkSession spark, DatasetSplits data, Plan plan, PrintStream err) {
    if (plan.warmUp()) {
      TrainBenchRunner.warmUp(spark, data, plan.configs(), plan.base(), err);
    }
    TrainerConfig any = plan.configs().get(0).config(plan.base().get());
    TrainingData training = TrainingData.of(spark, data, any.workers());
    List<TrainBenchOutcome> outcomes = new ArrayList<>();
    for (int round = 1; round <= plan.rounds(); round++) {
      List<TrainBenchConfigs.Sync> order = new ArrayList<>(plan.configs());
      if (round % 2 == 0) {
        Collections.reverse(order);
      }
      if (plan.rounds() > 1) {
        err.printf(Locale.ROOT, "[bench train] round %d of %d: %s%n", round, plan.rounds(),
            order.stream().map(TrainBenchConfigs.Sync::name).collect(Collectors.joining(", ")));
      }
      TrainBenchOutcome[] ran = new TrainBenchOutcome[order.size()];
      for (TrainBenchConfigs.Sync sync : order) {
        ran[plan.configs().indexOf(sync)] = TrainBenchRunner.fit(spark, training, sync,
            sync.config(plan.base().get()), "train", err).inRound(round);
      }
      outcomes.addAll(List.of(ran));
    }
    return outcomes;
  }

  /**
   * Writes the results folder of {@code outcomes} (and of the peer's run, when not null) and prints its console text.
   */
  static TrainBenchReport report(Plan plan, DatasetSplits data, List<TrainBenchOutcome> outcomes,
      TrainBenchTorchDdp.Run ddp, PrintStream out) {
    TrainBenchReport report = TrainBenchReport.write(plan, data, outcomes, ddp);
    out.print(report.consoleText());
    return report;
  }
}
