package io.dssync.bench.peer;

import io.dssync.bench.BenchTable;
import io.dssync.bench.ResultsFolder;
import io.dssync.bench.train.TrainBenchChart;
import io.dssync.bench.train.TrainBenchCurve;
import io.dssync.bench.train.TrainBenchOutcome;
import io.dssync.data.DatasetSplits;
import io.dssync.train.TrainerConfig;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The results of {@code dssync bench peer}: {@code peer.csv} (one row per run, ratios against the
 * chunked MLlib run), {@code peer-curve.csv}, the accuracy-vs-time chart and {@code summary.md},
 * which says exactly how MLlib was driven.
 */
record PeerBenchReport(BenchTable peer, BenchTable curve, Path summary, String consoleText) {
  static final String[] COLUMNS = {"network", "system", "config", "layers", "workers", "progress_unit",
      "progress", "train_s", "target_accuracy", "time_to_target_s", "final_accuracy", "weights",
      "time_to_target_ratio_vs_mllib", "accuracy_diff_vs_mllib_pts"};

  static PeerBenchReport write(PeerBench.Plan plan, DatasetSplits data, List<TrainBenchOutcome> ours,
      int[] layers, PeerBenchMllib.Chunked mllib, TrainBenchCurve.Point continuous) {
    double target = plan.target();
    double mllibTime = mllib.curve().timeToTarget(target);
    double mllibFinal = mllib.curve().finalAccuracy();
    String layerText = Arrays.stream(layers).mapToObj(String::valueOf).collect(Collectors.joining("-"));
    int workers = ours.get(0).config().workers();
    BenchTable peer = new BenchTable("peer", COLUMNS);
    BenchTable curve = new BenchTable("peer-curve", "network", "system", "config", "progress_unit", "progress",
        "train_s", "test_accuracy");
    Map<String, TrainBenchCurve> curves = new LinkedHashMap<>();
    StringBuilder ratios = new StringBuilder();
    for (TrainBenchOutcome o : ours) {
      String name = "dssync " + o.sync().name();
      double time = o.curve().timeToTarget(target);
      double ratio = TrainBenchCurve.ratio(time, mllibTime);
      peer.add(plan.network(), "dssync", o.sync().name(), layerText, workers, "steps", o.result().totalSteps(),
          o.trainSeconds(), target, time, o.curve().finalAccuracy(), o.stateFloats(), ratio,
          100 * (o.curve().finalAccuracy() - mllibFinal));
      addCurve(curve, plan.network(), "dssync", o.sync().name(), "steps", o.curve());
      curves.put(name, o.curve());
      ratios.append(String.format(Locale.ROOT, "- %s: time to %.4f = %s; time ratio this / MLlib %s%n",
          name, target, seconds(time), TrainBenchCurve.ratioText(time, mllibTime, mllibTrainSeconds(mllib))));
    }
    String config = "mlp-" + plan.mllib().solver() + "-chunked";
    double mllibTrain = mllibTrainSeconds(mllib);
    peer.add(plan.network(), "mllib", config, layerText, workers, "iterations", mllib.iterations(), mllibTrain,
        target, mllibTime, mllibFinal, mllib.weights(), TrainBenchCurve.ratio(mllibTime, mllibTime), 0.0);
    addCurve(curve, plan.network(), "mllib", config, "iterations", mllib.curve());
    curves.put("mllib " + plan.mllib().solver() + " (chunks of " + plan.mllib().chunkIterations() + ")",
        mllib.curve());
    if (continuous != null) {
      peer.add(plan.network(), "mllib", "mlp-" + plan.mllib().solver() + "-one-fit", layerText, workers,
          "iterations", continuous.progress(), continuous.trainSeconds(), target, Double.NaN,
          continuous.accuracy(), mllib.weights(), Double.NaN, 100 * (continuous.accuracy() - mllibFinal));
    }

    ResultsFolder folder = ResultsFolder.create(plan.out(), "peer", plan.commandLine());
    TrainerConfig c = ours.get(0).config();
    folder.note(String.format(Locale.ROOT, "Network: **%s**. Data: %s, the same %d training / %d test examples for"
            + " both systems. One SparkSession (the same executors) for every run. Target test accuracy %.4f.",
        plan.network(), data.name(), data.train().size(), data.test().size(), target));
    folder.note(String.format(Locale.ROOT, "**DS-Sync**: model `mlp` (%s, ReLU), %d workers, batch %d per worker,"
            + " %d epochs, optimizer %s lr %s (%s schedule), %d steps per stage, seed %d; runs `full` and `random-g2`."
            + " Time counted: the sum of the stages' wall times (test evaluation between stages excluded).",
        layerText, workers, c.get(TrainerConfig.BATCH_SIZE), c.get(TrainerConfig.EPOCHS),
        c.get(TrainerConfig.OPTIMIZER), c.get(TrainerConfig.LEARNING_RATE), c.get(TrainerConfig.LR_SCHEDULE),
        c.get(TrainerConfig.STEPS_PER_STAGE), c.get(TrainerConfig.SEED)));
    folder.note(String.format(Locale.ROOT, "**MLlib**: `MultilayerPerceptronClassifier` with layers %s (MLlib's"
            + " hidden layers are sigmoid, the output softmax; it has no ReLU option), solver %s, blockSize %d,"
            + " seed %d, default tol, on a cached DataFrame of %d partitions (one per worker). MLlib has no"
            + " per-iteration callback, so it was trained in chunks: `fit` with maxIter = %d, then again with"
            + " `setInitialWeights(previous model.weights())`, %d iterations in all; the test accuracy was"
            + " computed (model.transform + MulticlassClassificationEvaluator) after every chunk, outside the"
            + " clock. Time counted: the sum of the `fit` calls' wall times, which includes MLlib re-stacking"
            + " the cached rows into blocks at the start of every fit; %s restarts its state (for l-bfgs the"
            + " curvature history) at every chunk.%s",
        layerText, plan.mllib().solver(), plan.mllib().blockSize(), plan.mllib().seed(), workers,
        plan.mllib().chunkIterations(), mllib.iterations(), plan.mllib().solver(),
        continuous == null ? "" : String.format(Locale.ROOT, " What the chunking costs was measured: one"
            + " uninterrupted fit of the same %d iterations took %.2f s (chunked: %.2f s) and reached %.4f"
            + " (chunked: %.4f); row `%s`.", continuous.progress(), continuous.trainSeconds(), mllibTrain,
            continuous.accuracy(), mllibFinal, "mlp-" + plan.mllib().solver() + "-one-fit")));
    folder.write(peer, "Runs (ratios against the chunked MLlib run)");
    folder.note("### Time to target\n\n" + ratios
        + String.format(Locale.ROOT, "- mllib: time to %.4f = %s%n", target, seconds(mllibTime)));
    folder.chart("accuracy-vs-time", TrainBenchChart.accuracyVsTime("Test accuracy by training time: DS-Sync vs"
        + " MLlib MLP (" + plan.network() + ", " + workers + " workers)", curves, target));
    folder.write(curve, "Accuracy after every stage / chunk");
    Path summary = folder.finish();
    String console = "dssync bench peer: wrote " + summary + "\n" + peer.toMarkdown() + ratios
        + String.format(Locale.ROOT, "- mllib: time to %.4f = %s%n", target, seconds(mllibTime));
    return new PeerBenchReport(peer, curve, summary, console);
  }

  private static void addCurve(BenchTable table, String network, String system, String config, String unit,
      TrainBenchCurve curve) {
    for (TrainBenchCurve.Point p : curve.points()) {
      table.add(network, system, config, unit, p.progress(), p.trainSeconds(), p.accuracy());
    }
  }

  private static String seconds(double s) {
    return Double.isNaN(s) ? "not reached" : String.format(Locale.ROOT, "%.2f s", s);
  }

  private static double mllibTrainSeconds(PeerBenchMllib.Chunked mllib) {
    List<TrainBenchCurve.Point> points = mllib.curve().points();
    return points.isEmpty() ? Double.NaN : points.get(points.size() - 1).trainSeconds();
  }
}
