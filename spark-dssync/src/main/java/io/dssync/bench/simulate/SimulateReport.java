package io.dssync.bench.simulate;

import io.dssync.bench.BenchTable;
import io.dssync.launch.ByteSize;
import io.dssync.bench.CsvRows;
import io.dssync.bench.ResultsFolder;
import io.dssync.schedule.ConsensusSimulation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/** Computes and writes the simulate mode's tables, charts and summary. */
final class SimulateReport {
  /** Steps over which the per-step contraction is averaged geometrically. */
  static final int CONSENSUS_WINDOW = 4;
  /** Steps simulated at most when looking for consensus. */
  static final int CONSENSUS_MAX_STEPS = 200;

  static final String[] ERROR_COLUMNS = {"source", "quantity", "network", "schedule", "workers", "group_size",
      "global_every", "bytes", "measured_ms", "predicted_ms", "relative_error"};
  static final String[] CALIBRATION_COLUMNS = {"network", "latency_ms", "bandwidth_MBps", "points",
      "uplink_MBps", "inter_rack_latency_ms", "uplink_queue_MB", "uplink_overflow_share", "cross_rack_points",
      "mean_abs_relative_error",
      "max_abs_relative_error"};
  static final String[] PREDICTION_COLUMNS = {"network", "schedule", "workers", "group_size", "global_every",
      "racks", "state_bytes", "compute_ms", "sync_ms", "step_ms", "step_time_vs_full", "consensus_first_step",
      "consensus_per_step", "steps_to_consensus"};

  private SimulateReport() {}

  static Path write(ResultsFolder folder, SimulateSettings s, Map<String, RackCalibration.Links> fits,
      CsvRows allReduce, List<TrainRunPoint> runs, List<String> notes) {
    BenchTable errors = new BenchTable("simulate", ERROR_COLUMNS);
    Map<String, double[]> errorSums = new HashMap<>();
    for (int r = 0; r < allReduce.size(); r++) {
      String network = allReduce.text(r, "network");
      RackCalibration.Cell cell = SimulateBench.cell(allReduce, r);
      double predicted = fits.get(network).predictMs(cell, s.racks());
      double rel = (predicted - cell.timeMs()) / cell.timeMs();
      int g = cell.groupSize();
      errors.add("allreduce", "allreduce_ms", network, "group-g" + g + (cell.crossesRacks(s.racks()) ? "-cross-rack"
          : ""), cell.workers(), g, 0, cell.bytes(), cell.timeMs(), predicted, rel);
      double[] sum = errorSums.computeIfAbsent(network, k -> new double[3]);
      sum[0] += Math.abs(rel);
      sum[1]++;
      sum[2] = Math.max(sum[2], Math.abs(rel));
    }
    for (TrainRunPoint run : runs) {
      RackCalibration.Links fit = fits.getOrDefault(run.network(), null);
      String network = run.network();
      if (fit == null) {
        network = fits.keySet().iterator().next();
        fit = fits.get(network);
        String note = "Train network `" + run.network() + "` has no all-reduce calibration; its runs are predicted"
            + " with the link of `" + network + "`.";
        if (!notes.contains(note)) {
          notes.add(note);
        }
      }
      CostModel model = s.model(fit).withCompute(run.computeMsPerStep());
      if (run.allReduce() != null) { // full-ring, full-direct: the all-reduce the run's configuration named
        model = model.withAllReduce(run.allReduce());
      }
      // Over the run's own steps where runs.csv records them.
      int steps = run.steps() > 0 ? run.steps() : StepTimePrediction.window(run.schedule(), run.stepsPerStage());
      double sync = StepTimePrediction.meanSyncMs(model, run.schedule(), run.workers(), run.stateFloats() * 4,
          s.seed(), run.stepsPerStage(), steps);
      double measuredStep = run.computeMsPerStep() + run.syncMsPerStep();
      double predictedStep = run.computeMsPerStep() + sync;
      String schedule = run.schedule().label() + (run.allReduce() == null ? "" : "-" + run.allReduce().label());
      errors.add("train", "sync_ms_per_step", run.network(), schedule, run.workers(), run.groupSize(),
          run.globalEvery(), run.stateFloats() * 4, run.syncMsPerStep(), sync, relative(sync, run.syncMsPerStep()));
      errors.add("train", "step_ms", run.network(), schedule, run.workers(), run.groupSize(),
          run.globalEvery(), run.stateFloats() * 4, measuredStep, predictedStep, relative(predictedStep, measuredStep));
    }
    BenchTable calibration = new BenchTable("calibration", CALIBRATION_COLUMNS);
    fits.forEach((network, links) -> {
      double[] sum = errorSums.get(network);
      CostModelFit.Fit fit = links.inRack();
      calibration.add(network, fit.latencyMs(), fit.bandwidthMBps(), fit.points(), links.uplinkMBps(),
          links.interRackLatencyMs(), links.uplinkQueueMB(), links.uplinkOverflowShare(), links.crossCells(),
          sum[0] / sum[1], sum[2]);
    });
    BenchTable predictions = predictions(s, fits);

    folder.note(String.format(Locale.ROOT, "Cost model: group all-reduce in two phases of g-1 serial exchanges of"
            + " S/g bytes, each member with every peer (direct) or only with the next one round a ring in rank order"
            + " (one flow per link); predictions for all-reduce %s, every worker on a host of its own; all-reduce"
            + " cells priced for the all-reduce their table records (direct where it records none), train runs for"
            + " the one their configuration names (-direct, -ring), else as the predictions; groups in parallel;"
            + " racks = %d equal blocks of consecutive ranks with a"
            + " shared uplink per rack (which carries the first uplink_queue_MB of a phase at uplink_MBps and the rest"
            + " at uplink_overflow_share of it: the calibration table); compute %.1f ms per step (%s); model %d floats"
            + " (%s). Latency and bandwidth are fitted per network by least squares on relative error. %s",
        s.allReduce().describe(), s.racks(),
        s.computeMs(), s.computeSource(), s.stateFloats(), ByteSize.label(s.stateBytes()), s.stepsPerStage() > 0
            ? "Predictions: the last step of every stage of " + s.stepsPerStage() + " steps does not average (the"
                + " stage-end average of all ranks, outside the step times, stands in for it); each train run with"
                + " the steps per stage it recorded."
            : "Predictions: every step averages (no steps per stage given or recorded)."));
    notes.forEach(folder::note);
    folder.write(calibration, "Calibration (fitted from the all-reduce table)");
    folder.write(errors, "Prediction error at every measured point");
    folder.chart("predicted-vs-measured", scatter(errors));
    folder.write(predictions, "Predictions for N = " + s.workers().get(0) + ".." + s.workers().get(
        s.workers().size() - 1));
    String first = fits.keySet().iterator().next();
    folder.chart("step-time-vs-workers", byWorkers(predictions, first, "step_ms",
        "Predicted step time (" + first + ", " + s.racks() + " racks)", "ms per step"));
    folder.chart("steps-to-consensus-vs-workers", byWorkers(predictions, first, "steps_to_consensus",
        "Steps until D_t/D_0 < " + ConsensusSimulation.CONSENSUS, "steps"));
    folder.note("Consensus columns: D_t = sum of squared distances of the replicas to their mean, simulated by"
        + " averaging random vectors (dimension " + s.dimension() + ", " + s.trials() + " trials) in the groups the"
        + " real schedules give. consensus_first_step = D_1/D_0 (random groups of g: (N-g)/(g(N-1))),"
        + " consensus_per_step = (D_" + CONSENSUS_WINDOW + "/D_0)^(1/" + CONSENSUS_WINDOW + "), steps_to_consensus ="
        + " first t with D_t/D_0 < " + ConsensusSimulation.CONSENSUS + " (" + (CONSENSUS_MAX_STEPS + 1)
        + " = not within " + CONSENSUS_MAX_STEPS + ").");
    return folder.finish();
  }

  static BenchTable predictions(SimulateSettings s, Map<String, RackCalibration.Links> fits) {
    BenchTable table = new BenchTable("predictions", PREDICTION_COLUMNS);
    List<SimulatedSchedule> schedules = new ArrayList<>(SimulatedSchedule.standard(s.groupSize(), s.globalEvery()));
    if (s.racks() >= 2) {
      schedules.add(SimulatedSchedule.topology(s.groupSize(), s.racks(), s.crossRackPeriod()));
    }
    Map<String, ConsensusSimulation> consensus = new HashMap<>();
    for (Map.Entry<String, RackCalibration.Links> e : fits.entrySet()) {
      CostModel model = s.model(e.getValue());
      for (int n : s.workers()) {
        double full = Double.NaN;
        for (SimulatedSchedule schedule : schedules) {
          if (!schedule.fits(n)) {
            continue;
          }
          double sync = StepTimePrediction.meanSyncMs(model, schedule, n, s.stateBytes(), s.seed(),
              s.stepsPerStage());
          double step = model.computeMs() + sync;
          if (schedule.kind() == io.dssync.schedule.ScheduleKind.FULL) {
            full = step;
          }
          ConsensusSimulation c = consensus.computeIfAbsent(schedule.label() + "@" + n, k -> ConsensusSimulation.run(
              schedule.create(n, s.seed()), s.dimension(), s.trials(), CONSENSUS_WINDOW, CONSENSUS_MAX_STEPS,
              s.seed()));
          table.add(e.getKey(), schedule.label(), n, schedule.kind() == io.dssync.schedule.ScheduleKind.FULL ? n
              : schedule.groupSize(), schedule.globalEvery(), s.racks(), s.stateBytes(), model.computeMs(), sync,
              step, step / full, c.firstStep(), c.perStep(), c.stepsToConsensus());
        }
        if (s.racks() >= 2 && n >= 2 * s.racks()) {
          addAuto(table, e.getKey(), s, model, n, full);
        }
      }
    }
    return table;
  }

  /** What --schedule auto would choose for N workers on this model's racks, and its prediction. */
  private static void addAuto(BenchTable table, String network, SimulateSettings s, CostModel model, int n,
      double full) {
    int[] racks = io.dssync.schedule.Schedules.consecutiveRacks(n, s.racks());
    io.dssync.schedule.AutoPlanner.Plan plan = io.dssync.schedule.AutoPlanner.choose(
        new io.dssync.schedule.ScheduleSpec(io.dssync.schedule.ScheduleKind.AUTO, n, 2, 1, 0, s.seed()), racks,
        io.dssync.schedule.RackLayout.byHost(),
        (groups, share) -> model.syncMs(groups, n, Math.round(s.stateBytes() * share)), model.computeMs(),
        s.stepsPerStage() > 0 ? s.stepsPerStage() : Integer.MAX_VALUE, null, // no stages known: none end
        model.allReduce(), false); // its cost model prices floats
    io.dssync.schedule.AutoPlanner.Candidate c = plan.chosen();
    io.dssync.schedule.GroupSchedule chosen = plan.spec().kind() == io.dssync.schedule.ScheduleKind.TOPOLOGY
        ? io.dssync.schedule.Schedules.topology(plan.spec(), racks) : io.dssync.schedule.Schedules.create(plan.spec());
    ConsensusSimulation consensus = ConsensusSimulation.run(chosen, s.dimension(), s.trials(), CONSENSUS_WINDOW,
        CONSENSUS_MAX_STEPS, s.seed());
    table.add(network, "auto:" + c.label().replace(' ', '-'), n, c.groupSize(), 0, s.racks(), s.stateBytes(),
        model.computeMs(), c.syncMs(), c.stepMs(), c.stepMs() / full, consensus.firstStep(), consensus.perStep(),
        consensus.stepsToConsensus());
  }

  private static double relative(double predicted, double measured) {
    return measured > 0 ? (predicted - measured) / measured : Double.NaN;
  }

  private static XYChart scatter(BenchTable errors) {
    XYChart chart = base("Predicted vs measured (ms)", "measured ms", "predicted ms");
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
    Map<String, List<double[]>> bySource = new HashMap<>();
    double lo = Double.MAX_VALUE;
    double hi = 0;
    for (int r = 0; r < errors.rows().size(); r++) {
      double m = parse(errors.cell(r, "measured_ms"));
      double p = parse(errors.cell(r, "predicted_ms"));
      if (m > 0 && p > 0) {
        bySource.computeIfAbsent(errors.cell(r, "quantity"), k -> new ArrayList<>()).add(new double[] {m, p});
        lo = Math.min(lo, Math.min(m, p));
        hi = Math.max(hi, Math.max(m, p));
      }
    }
    bySource.forEach((quantity, points) -> chart.addSeries(quantity, points.stream().map(x -> x[0]).toList(),
        points.stream().map(x -> x[1]).toList()));
    if (hi > 0) {
      chart.addSeries("exact", List.of(lo, hi), List.of(lo, hi)).setXYSeriesRenderStyle(
          XYSeries.XYSeriesRenderStyle.Line);
    }
    return chart;
  }

  private static XYChart byWorkers(BenchTable predictions, String network, String column, String title,
      String yTitle) {
    XYChart chart = base(title, "workers N", yTitle);
    chart.getStyler().setXAxisLogarithmic(true);
    Map<String, List<double[]>> bySchedule = new java.util.LinkedHashMap<>();
    for (int r = 0; r < predictions.rows().size(); r++) {
      if (predictions.cell(r, "network").equals(network)) {
        bySchedule.computeIfAbsent(predictions.cell(r, "schedule"), k -> new ArrayList<>()).add(new double[] {
            parse(predictions.cell(r, "workers")), parse(predictions.cell(r, column))});
      }
    }
    bySchedule.forEach((schedule, points) -> chart.addSeries(schedule, points.stream().map(x -> x[0]).toList(),
        points.stream().map(x -> x[1]).toList()));
    return chart;
  }

  private static XYChart base(String title, String x, String y) {
    XYChart chart = new XYChartBuilder().width(900).height(520).title(title).xAxisTitle(x).yAxisTitle(y).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    return chart;
  }

  private static double parse(String cell) {
    return cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
  }
}
