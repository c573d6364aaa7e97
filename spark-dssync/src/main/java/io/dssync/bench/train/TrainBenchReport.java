package io.dssync.bench.train;

import io.dssync.bench.BenchTable;
import io.dssync.bench.ResultsFolder;
import io.dssync.data.DatasetSplits;
import io.dssync.train.TrainerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The results of {@code dssync bench train}: {@code runs.csv} (one row per configuration and round,
 * ratios against {@code full} of the same round), {@code curve.csv} (accuracy after every stage), the
 * accuracy-vs-time chart and {@code summary.md} with the check against the issue's target (over
 * several rounds, on the median of the rounds' ratios and accuracy differences).
 */
record TrainBenchReport(BenchTable runs, BenchTable curve, Path summary, String consoleText) {
  /** The project's target for DS-Sync against full, set for a bandwidth-limited network (the throttled testbed). */
  static final double TARGET_TIME_RATIO = 0.6;
  static final double TARGET_ACCURACY_POINTS = 0.5;

  static final String[] RUN_COLUMNS = {"network", "config", "schedule", "group_size", "global_every", "workers",
      "steps", "steps_per_stage", "wall_s", "train_s", "target_accuracy", "time_to_target_s", "final_accuracy",
      "samples_per_s", "compute_ms_per_step", "sync_ms_per_step", "sync_wait_ms_per_step", "state_floats",
      "time_to_target_ratio_vs_full", "accuracy_diff_vs_full_pts", "samples_per_s_ratio_vs_full", "meets_target",
      "round"};

  /**
   * The results of {@code outcomes} (round after round, each round {@code full} first) and, when not
   * null, of the torch-ddp peer's run (against round 1's {@code full}).
   */
  static TrainBenchReport write(TrainBench.Plan plan, DatasetSplits data, List<TrainBenchOutcome> outcomes,
      TrainBenchTorchDdp.Run ddp) {
    TrainBenchOutcome full = outcomes.get(0);
    int rounds = plan.rounds();
    double target = plan.target();
    BenchTable runs = new BenchTable("runs", RUN_COLUMNS);
    BenchTable curve = new BenchTable("curve", "network", "config", "stage", "step", "train_s", "test_accuracy",
        "round");
    StringBuilder check = new StringBuilder();
    Map<String, TrainBenchCurve> curves = new LinkedHashMap<>();
    Map<String, List<double[]>> dsSyncRounds = new LinkedHashMap<>();
    for (TrainBenchOutcome o : outcomes) {
      TrainBenchOutcome roundFull = fullOf(outcomes, o.round());
      double fullTime = roundFull.curve().timeToTarget(target);
      double time = o.curve().timeToTarget(target);
      double ratio = TrainBenchCurve.ratio(time, fullTime);
      double diffPts = 100 * (o.curve().finalAccuracy() - roundFull.curve().finalAccuracy());
      String verdict = verdict(o, ratio, diffPts);
      runs.add(plan.network(), o.sync().name(), o.sync().schedule().cliName(), o.config().groupSize(),
          o.sync().globalEvery(), o.config().workers(), o.result().totalSteps(),
          o.config().get(TrainerConfig.STEPS_PER_STAGE), o.result().wallSeconds(), o.trainSeconds(), target, time,
          o.curve().finalAccuracy(), o.samplesPerSecond(), o.computeMsPerStep(), o.syncMsPerStep(),
          o.syncWaitMsPerStep(), o.stateFloats(), ratio, diffPts,
          TrainBenchCurve.ratio(o.samplesPerSecond(), roundFull.samplesPerSecond()), verdict, o.round());
      int stage = 1;
      for (TrainBenchCurve.Point p : o.curve().points()) {
        curve.add(plan.network(), o.sync().name(), stage++, p.progress(), p.trainSeconds(), p.accuracy(), o.round());
      }
      curves.put(label(o, rounds), o.curve());
      if (o.sync().isDsSync() && rounds == 1) {
        check.append(String.format(Locale.ROOT, "- %s: time-to-target ratio vs full %s, final accuracy %+.2f points"
            + " -> %s%n", o.sync().name(), TrainBenchCurve.ratioText(time, fullTime, roundFull.trainSeconds()),
            diffPts, verdict));
      } else if (o.sync().isDsSync()) {
        dsSyncRounds.computeIfAbsent(o.sync().name(), k -> new ArrayList<>()).add(new double[] {ratio, diffPts});
      }
    }
    dsSyncRounds.forEach((name, byRound) -> check.append(medianLine(name, byRound)));
    if (ddp != null) {
      addPeer(plan, full, ddp, runs, curve);
      curves.put(TrainBenchTorchDdp.NAME, ddp.curve());
    }
    ResultsFolder folder = ResultsFolder.create(plan.out(), "train", plan.commandLine());
    TrainerConfig c = full.config();
    folder.note(String.format(Locale.ROOT, "Network: **%s**. Data: %s, %d training / %d test examples. Model %s,"
            + " %d workers, batch %d per worker, %d epochs, %d steps per stage (test set evaluated after every"
            + " stage), seed %d; trainer settings given: %s. Target accuracy %.4f.",
        plan.network(), data.name(), data.train().size(), data.test().size(), c.get(TrainerConfig.MODEL),
        c.workers(), c.get(TrainerConfig.BATCH_SIZE), c.get(TrainerConfig.EPOCHS),
        c.get(TrainerConfig.STEPS_PER_STAGE), c.get(TrainerConfig.SEED), plan.trainerSettings(), target));
    folder.note("How time is counted: `time_to_target_s` is the training time until the end of the first stage"
        + " whose test accuracy is >= the target; `train_s` is the training time of the whole run. Training time"
        + " is the sum of the stages' wall times as the driver measures them (barrier-stage launch, compute and"
        + " synchronization included; test-set evaluation between stages, data sharding and session start-up"
        + " excluded). `wall_s` is the whole fit including evaluation. All configurations ran back to back in one"
        + " process on one SparkSession"
        + (plan.warmUp() ? ", after an untimed warm-up run of each configuration" : "")
        + (rounds == 1 ? "; ratios are against `full` from this same run. One round runs `full` first, while the"
            + " executors still compile (on a machine with a core or less per executor that took minutes), which"
            + " favours the configurations after it; `--rounds 3` alternates the order and judges on medians."
            : String.format(Locale.ROOT, ", in %d rounds (`round`): the given order in odd rounds, reversed (`full`"
                + " last) in even ones; ratios are against `full` from the same round.", rounds))
        + " `compute_ms_per_step`, `sync_ms_per_step` and `sync_wait_ms_per_step` (the part of the sync spent"
        + " waiting for peers) are step-weighted means over workers and steps; `state_floats` is the size of the"
        + " averaged model state.");
    folder.write(runs, rounds == 1 ? "Runs (ratios against full of the same run)"
        : "Runs (ratios against full of the same round)");
    folder.note(String.format(Locale.ROOT, "### Target check\n\nTarget: DS-Sync (random and butterfly, no periodic"
            + " global average) reaches the target accuracy in at most %.1f x the time of `full`, with final"
            + " accuracy at most %.1f points below it (a target set for the throttled testbed;"
            + " this run's network: %s).\n\n%s", TARGET_TIME_RATIO, TARGET_ACCURACY_POINTS, plan.network(),
        check.length() == 0 ? "- no DS-Sync configuration ran\n" : check));
    String peerLines = ddp == null ? "" : peerLines(outcomes, rounds, ddp, target);
    if (ddp != null) {
      folder.note("### Against " + TrainBenchTorchDdp.NAME + "\n\n" + PEER_TIMING + "\n\n"
          + peerLines.lines().map(l -> "- " + l + "\n").collect(java.util.stream.Collectors.joining()));
    }
    if (!plan.skipped().isEmpty()) {
      folder.note("Skipped (not possible with this worker count): " + String.join("; ", plan.skipped()));
    }
    folder.chart("accuracy-vs-time", TrainBenchChart.accuracyVsTime(
        "Test accuracy by training time (" + plan.network() + ", " + c.get(TrainerConfig.MODEL) + ", "
            + c.workers() + " workers)", curves, target));
    folder.write(curve, "Accuracy after every stage");
    Path summary = folder.finish();
    String console = "dssync bench train: wrote " + summary + "\n" + runs.toMarkdown()
        + "Target (DS-Sync time-to-target <= " + TARGET_TIME_RATIO + " x full, final accuracy within "
        + TARGET_ACCURACY_POINTS + " points):\n" + check + peerLines;
    return new TrainBenchReport(runs, curve, summary, console);
  }

  /** What each side's clock counts, for the summary's section on the peer. */
  static final String PEER_TIMING = "PyTorch DistributedDataParallel (Gloo, one process per worker on 127.0.0.1, the"
      + " same threads per worker) trained the same cnn architecture on the same examples, shards (rank r takes"
      + " examples r mod N), per-worker batch, epochs and step count, with the same SGD settings, learning-rate"
      + " schedule and evaluation points, after our configurations and with the Spark session stopped. Its"
      + " initial weights and batch order follow the same seeded policy from another random generator, so its"
      + " curve is not step-for-step ours. Its clock starts once every rank has loaded the data and built the"
      + " model (process start, torch import, rendezvous and data loading excluded) and counts the steps and a"
      + " barrier at the end of each stage; rank 0's test-set evaluation and the barrier that waits for it are"
      + " excluded; it has no separate warm-up run, so its first steps pay PyTorch's one-off set-up. Ours"
      + " counts the stages' wall times, which also include launching a Spark barrier stage and shipping the"
      + " consensus model to the workers at every stage; DDP has no such per-stage cost.";

  /**
   * One row of runs.csv and the curve for the peer, against round 1's {@code full} (its round);
   * compute/sync split and state size are not measured (empty).
   */
  private static void addPeer(TrainBench.Plan plan, TrainBenchOutcome full, TrainBenchTorchDdp.Run ddp,
      BenchTable runs, BenchTable curve) {
    TrainerConfig c = full.config();
    double target = plan.target();
    double time = ddp.curve().timeToTarget(target);
    double samplesPerSecond = ddp.steps() * c.workers() * c.get(TrainerConfig.BATCH_SIZE) / ddp.trainSeconds();
    runs.add(plan.network(), TrainBenchTorchDdp.NAME, TrainBenchTorchDdp.NAME, c.workers(), 0, c.workers(),
        ddp.steps(), c.get(TrainerConfig.STEPS_PER_STAGE), ddp.wallSeconds(), ddp.trainSeconds(), target, time,
        ddp.curve().finalAccuracy(),
        samplesPerSecond, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
        TrainBenchCurve.ratio(time, full.curve().timeToTarget(target)),
        100 * (ddp.curve().finalAccuracy() - full.curve().finalAccuracy()),
        TrainBenchCurve.ratio(samplesPerSecond, full.samplesPerSecond()), "n/a", full.round());
    int stage = 1;
    for (TrainBenchCurve.Point p : ddp.curve().points()) {
      curve.add(plan.network(), TrainBenchTorchDdp.NAME, stage++, p.progress(), p.trainSeconds(), p.accuracy(),
          full.round());
    }
  }

  /** One ratio line per configuration (and round) against the peer. */
  private static String peerLines(List<TrainBenchOutcome> outcomes, int rounds, TrainBenchTorchDdp.Run ddp,
      double target) {
    StringBuilder sb = new StringBuilder();
    for (TrainBenchOutcome o : outcomes) {
      sb.append(TrainBenchTorchDdp.ratioLine(label(o, rounds), o.curve(), o.trainSeconds(), ddp, target)).append('\n');
    }
    return sb.toString();
  }

  /** {@code full}'s outcome in round {@code round} (each round lists it first). */
  private static TrainBenchOutcome fullOf(List<TrainBenchOutcome> outcomes, int round) {
    return outcomes.stream().filter(o -> o.round() == round).findFirst().orElseThrow();
  }

  /** The configuration's name, with its round when there are several: "random-g2 #2". */
  private static String label(TrainBenchOutcome o, int rounds) {
    return rounds == 1 ? o.sync().name() : o.sync().name() + " #" + o.round();
  }

  /**
   * The target check of a configuration over several rounds: every round's ratio and accuracy
   * difference, and the verdict on their medians (a round that never reached the target counts as
   * the slowest).
   */
  static String medianLine(String name, List<double[]> byRound) {
    double[] ratios = byRound.stream().mapToDouble(r -> Double.isNaN(r[0]) ? Double.POSITIVE_INFINITY : r[0])
        .toArray();
    double[] diffs = byRound.stream().mapToDouble(r -> r[1]).toArray();
    double ratio = median(ratios);
    double diffPts = median(diffs);
    boolean met = ratio <= TARGET_TIME_RATIO && diffPts >= -TARGET_ACCURACY_POINTS;
    return String.format(Locale.ROOT, "- %s: time-to-target ratio vs full by round %s (median %s), final accuracy"
            + " by round %s points (median %+.2f) -> %s%n", name,
        Arrays.stream(ratios).mapToObj(TrainBenchReport::ratioOrNotReached).collect(Collectors.joining(", ")),
        ratioOrNotReached(ratio),
        Arrays.stream(diffs).mapToObj(d -> String.format(Locale.ROOT, "%+.2f", d)).collect(Collectors.joining(", ")),
        diffPts, met ? "met" : "missed");
  }

  private static String ratioOrNotReached(double ratio) {
    return Double.isInfinite(ratio) ? "not reached" : String.format(Locale.ROOT, "%.3f", ratio);
  }

  /** The median (the mean of the middle two for an even count). */
  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** "met"/"missed" for DS-Sync rows against the issue's target, "n/a" for the others. */
  static String verdict(TrainBenchOutcome o, double ratio, double diffPts) {
    if (!o.sync().isDsSync()) {
      return "n/a";
    }
    boolean met = !Double.isNaN(ratio) && ratio <= TARGET_TIME_RATIO && diffPts >= -TARGET_ACCURACY_POINTS;
    return met ? "met" : "missed";
  }
}
