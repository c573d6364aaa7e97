package io.dssync.bench.simulate;

import io.dssync.bench.CsvRows;
import io.dssync.bench.train.TrainBenchConfigs;
import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.schedule.RingRule;
import io.dssync.schedule.ScheduleKind;
import io.dssync.train.PlannedAllReduce;
import java.util.ArrayList;
import java.util.List;

/**
 * One measured training run from the train mode's {@code runs.csv}: the simulator predicts its
 * sync time per step and compares. {@code stepsPerStage} and {@code steps} (the run's steps) are 0
 * where the table does not record them. {@code allReduce} is the all-reduce its configuration's name
 * ends in (full-ring: ring), or null where it names none: the run used its default, which the
 * simulator's --all-reduce stands for.
 */
record TrainRunPoint(String network, ScheduleKind kind, int groupSize, int globalEvery, int workers,
    double computeMsPerStep, double syncMsPerStep, long stateFloats, int stepsPerStage, int steps,
    RingRule allReduce) {
  static final List<String> COLUMNS = List.of("network", "schedule", "group_size", "global_every", "workers",
      "compute_ms_per_step", "sync_ms_per_step", "state_floats");

  SimulatedSchedule schedule() {
    return new SimulatedSchedule(kind, groupSize, globalEvery);
  }

  /** Reads the rows; rows whose schedule is not one the simulator knows are reported in {@code skipped}. */
  static List<TrainRunPoint> read(CsvRows csv, List<String> skipped) {
    List<TrainRunPoint> points = new ArrayList<>();
    for (int r = 0; r < csv.size(); r++) {
      String schedule = csv.text(r, "schedule").trim();
      ScheduleKind kind;
      try {
        kind = ScheduleKind.parse(schedule);
      } catch (RuntimeException e) {
        skipped.add("row " + (r + 2) + ": schedule '" + schedule + "' is not simulated");
        continue;
      }
      if (kind == ScheduleKind.TOPOLOGY || kind == ScheduleKind.AUTO) {
        // The runs table does not record which rank ran in which rack, so their groups are unknown.
        skipped.add("row " + (r + 2) + ": schedule '" + schedule + "' is not simulated (its racks are not recorded)");
        continue;
      }
      if (csv.hasColumn("config") && TrainBenchConfigs.sendsHalves(csv.text(r, "config").trim())) {
        skipped.add("row " + (r + 2) + ": configuration '" + csv.text(r, "config").trim()
            + "' sends halves across racks, and the cost model prices floats");
        continue;
      }
      int workers = (int) csv.number(r, "workers");
      int g = kind.effectiveGroupSize(workers, (int) csv.number(r, "group_size"));
      double global = csv.number(r, "global_every");
      TrainRunPoint p = new TrainRunPoint(csv.text(r, "network"), kind, g, Double.isFinite(global) ? (int) global : 0,
          workers, csv.number(r, "compute_ms_per_step"), csv.number(r, "sync_ms_per_step"),
          (long) csv.number(r, "state_floats"), positive(csv, r, "steps_per_stage"), positive(csv, r, "steps"),
          namedAllReduce(csv, r));
      if (!p.schedule().fits(workers) || !(p.syncMsPerStep() >= 0) || !(p.computeMsPerStep() >= 0)
          || p.stateFloats() <= 0) {
        skipped.add("row " + (r + 2) + ": incomplete or inconsistent (" + p + ")");
        continue;
      }
      points.add(p);
    }
    return points;
  }

  /** The all-reduce the run's configuration names, or null (none named, or no config column). */
  private static RingRule namedAllReduce(CsvRows csv, int r) {
    AllReduceAlgorithm named = csv.hasColumn("config") ? TrainBenchConfigs.allReduceOf(csv.text(r, "config").trim())
        : null;
    return named == null ? null : PlannedAllReduce.ringRule(named);
  }

  /** A count of the run (steps, steps per stage); 0 when its table predates the column. */
  private static int positive(CsvRows csv, int r, String column) {
    if (!csv.hasColumn(column)) {
      return 0;
    }
    double s = csv.number(r, column);
    return Double.isFinite(s) && s >= 1 ? (int) s : 0;
  }
}
