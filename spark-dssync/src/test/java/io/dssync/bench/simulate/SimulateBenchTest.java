package io.dssync.bench.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.bench.BenchTable;
import io.dssync.launch.ByteSize;
import io.dssync.bench.CsvRows;
import io.dssync.bench.allreduce.AllReduceReport;
import io.dssync.errors.DsSyncException;
import io.dssync.schedule.RingRule;
import io.dssync.schedule.ScheduleKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulate mode end to end on synthetic measurements whose true cost model is known. */
class SimulateBenchTest {
  private static final CostModel TRUTH = CostModel.flat(0, 1.5, 250);

  @TempDir Path out;

  @Test
  void calibratesFromAllReduceAndTrainAndPredictsEverySchedule() throws Exception {
    writeAllReduce();
    Files.createDirectories(out.resolve("train"));
    long floats = 2_000_000;
    double computeMs = 40;
    double randomSync = StepTimePrediction.meanSyncMs(TRUTH, new SimulatedSchedule(ScheduleKind.RANDOM, 2, 0), 4,
        floats * 4, 42, 0);
    double fullSync = TRUTH.groupAllReduceMs(4, floats * 4);
    Files.writeString(out.resolve("train/runs.csv"), String.join("\n",
        "network,schedule,group_size,global_every,workers,compute_ms_per_step,sync_ms_per_step,state_floats,accuracy",
        "loopback,full,4,0,4," + computeMs + "," + fullSync + "," + floats + ",0.8",
        "loopback,random,2,0,4," + computeMs + "," + randomSync + "," + floats + ",0.8",
        "loopback,topology,2,0,4,40,1," + floats + ",0.8") + "\n");

    int code = run("--out", out.toString(), "--workers", "4,16,64", "--trials", "1", "--racks", "2");
    assertEquals(0, code);

    CsvRows calibration = CsvRows.read(out.resolve("simulate/calibration.csv"));
    assertEquals(1.5, calibration.number(0, "latency_ms"), 0.01);
    assertEquals(250, calibration.number(0, "bandwidth_MBps"), 1);

    CsvRows errors = CsvRows.read(out.resolve("simulate/simulate.csv"));
    assertEquals(6 + 2 * 2, errors.size()); // 6 all-reduce points, 2 quantities per used train run
    for (int r = 0; r < errors.size(); r++) {
      double rel = errors.number(r, "relative_error");
      assertTrue(Math.abs(rel) < 0.01, "row " + r + " relative error " + rel);
      assertEquals(errors.number(r, "relative_error"),
          (errors.number(r, "predicted_ms") - errors.number(r, "measured_ms")) / errors.number(r, "measured_ms"),
          1e-3);
    }

    CsvRows predictions = CsvRows.read(out.resolve("simulate/predictions.csv"));
    // N = 4, 16, 64 are powers of g = 4: all five schedules, plus topology and auto (2 racks)
    assertEquals(3 * 7, predictions.size());
    Map<String, Double> fullStep = new HashMap<>();
    for (int r = 0; r < predictions.size(); r++) {
      String n = predictions.text(r, "workers");
      double step = predictions.number(r, "step_ms");
      assertEquals(computeMs, predictions.number(r, "compute_ms"), 1e-6); // median of the used train runs
      assertEquals(step, computeMs + predictions.number(r, "sync_ms"), 0.01);
      if (predictions.text(r, "schedule").equals("full")) {
        fullStep.put(n, step);
        assertEquals(1.0, predictions.number(r, "step_time_vs_full"), 1e-6);
        assertEquals(0, predictions.number(r, "consensus_first_step"), 1e-12);
      } else {
        assertEquals(step / fullStep.get(n), predictions.number(r, "step_time_vs_full"), 1e-3);
      }
      if (predictions.text(r, "schedule").equals("local-H8")) {
        assertEquals(8, predictions.number(r, "steps_to_consensus"));
      }
      for (String c : SimulateReport.PREDICTION_COLUMNS) {
        if (!c.equals("network") && !c.equals("schedule")) {
          assertTrue(Double.isFinite(predictions.number(r, c)), c + " in row " + r);
        }
      }
    }
    String md = Files.readString(out.resolve("simulate/summary.md"));
    assertTrue(md.contains("schedule 'topology' is not simulated"), md);
    for (String png : List.of("predicted-vs-measured", "step-time-vs-workers", "steps-to-consensus-vs-workers")) {
      assertTrue(Files.size(out.resolve("simulate/" + png + ".png")) > 1000, png);
    }
  }

  @Test
  void withoutTrainRunsItSaysSoAndUsesTheDefaults() throws Exception {
    writeAllReduce();
    assertEquals(0, run("--out", out.toString(), "--workers", "8", "--trials", "1", "--compute-ms", "5"));
    String md = Files.readString(out.resolve("simulate/summary.md"));
    assertTrue(md.contains("No train results"), md);
    CsvRows predictions = CsvRows.read(out.resolve("simulate/predictions.csv"));
    assertEquals(6, predictions.size()); // butterfly g=4 does not exist for N = 8; topology and auto do
    assertEquals(5, predictions.number(0, "compute_ms"));
  }

  @Test
  void missingCalibrationNamesTheFlagAndTheFix() {
    DsSyncException e = assertThrows(DsSyncException.class, () -> run("--out", out.toString()));
    assertTrue(e.getMessage().contains("--allreduce-csv") && e.getMessage().contains("dssync bench allreduce"),
        e.getMessage());
    DsSyncException g = assertThrows(DsSyncException.class, () -> run("--group-size", "1"));
    assertTrue(g.getMessage().contains("--group-size"), g.getMessage());
  }

  /**
   * Two racks of two behind an 11 MB/s uplink, measured with the direct exchange by a table from before the
   * all_reduce column: `full` ran direct (--all-reduce direct), `full-ring` the ring its name says.
   */
  @Test
  void aTrainRunIsPredictedWithTheAllReduceItsConfigurationNamesTheOthersWithTheFlag() throws Exception {
    CostModel direct = new CostModel(0, 0.1, 120, 2, 0.2, 11).withAllReduce(RingRule.DIRECT);
    CostModel ring = direct.withAllReduce(RingRule.RING);
    BenchTable table = new BenchTable("allreduce",
        java.util.Arrays.copyOf(AllReduceReport.COLUMNS, AllReduceReport.COLUMNS.length - 1));
    for (int g : new int[] {2, 4}) {
      for (long bytes : new long[] {64L << 10, 1L << 20, 4L << 20, 16L << 20}) {
        int[][] groups = new RackCalibration.Cell(4, g, bytes, 1, RingRule.DIRECT).groups();
        double t = direct.syncMs(groups, 4, bytes);
        table.add("throttled", 4, g, 4 / g, bytes, ByteSize.label(bytes), 5, t, t, 0.0, 0.0, 120.0, 0.0, 0.0, t, 0.0,
            t);
      }
    }
    Files.createDirectories(out.resolve("allreduce"));
    Files.writeString(out.resolve("allreduce/allreduce.csv"), table.toCsv());
    long floats = 422_026;
    SimulatedSchedule full = new SimulatedSchedule(ScheduleKind.FULL, 0, 0);
    double directSync = StepTimePrediction.meanSyncMs(direct, full, 4, floats * 4, 42, 8, 62);
    double ringSync = StepTimePrediction.meanSyncMs(ring, full, 4, floats * 4, 42, 8, 62);
    Files.createDirectories(out.resolve("train"));
    Files.writeString(out.resolve("train/runs.csv"), String.join("\n",
        "network,config,schedule,group_size,global_every,workers,steps,steps_per_stage,compute_ms_per_step,"
            + "sync_ms_per_step,state_floats",
        "throttled,full,full,4,0,4,62,8,80," + directSync + "," + floats,
        "throttled,full-ring,full,4,0,4,62,8,80," + ringSync + "," + floats,
        "throttled,full-fp16,full,4,0,4,62,8,80," + directSync / 2 + "," + floats) + "\n");

    assertEquals(0, run("--out", out.toString(), "--workers", "4", "--trials", "1", "--racks", "2", "--all-reduce",
        "direct"));

    // Both runs within 3% (and the all-reduce cells), where the two all-reduces differ by more than 20%.
    assertTrue(ringSync < 0.8 * directSync, ringSync + " vs " + directSync);
    CsvRows errors = CsvRows.read(out.resolve("simulate/simulate.csv"));
    assertEquals(8 + 2 * 2, errors.size());
    for (int r = 0; r < errors.size(); r++) {
      assertTrue(Math.abs(errors.number(r, "relative_error")) < 0.03, "row " + r + ": " + errors.number(r,
          "relative_error"));
    }
    String md = Files.readString(out.resolve("simulate/summary.md"));
    assertTrue(md.contains("predictions for all-reduce direct (direct exchange in every group)"), md);
    assertTrue(md.contains("'full-fp16' sends halves across racks"), "the run in halves is left out, said why: " + md);
  }

  @Test
  void aBadAllReduceNamesTheFlagTheValueAndTheFix() {
    DsSyncException e = assertThrows(DsSyncException.class, () -> run("--out", out.toString(), "--all-reduce",
        "tree"));
    assertTrue(e.getMessage().contains("Invalid --all-reduce = tree") && e.getMessage().contains("Use auto"),
        e.getMessage());
  }

  /** Six points of the true model, written as the allreduce mode writes them. */
  private void writeAllReduce() throws Exception {
    BenchTable table = new BenchTable("allreduce", AllReduceReport.COLUMNS);
    for (int g : new int[] {2, 4}) {
      for (long bytes : new long[] {4096, 1 << 20, 64L << 20}) {
        double t = TRUTH.groupAllReduceMs(g, bytes);
        table.add("loopback", 4, g, 4 / g, bytes, ByteSize.label(bytes), 5, t, t, 0.0, 0.0, 1000.0, 0.0, 0.0, t, 0.0,
            t, "auto");
      }
    }
    Files.createDirectories(out.resolve("allreduce"));
    Files.writeString(out.resolve("allreduce/allreduce.csv"), table.toCsv());
  }

  private static int run(String... args) {
    return new SimulateBench().run(args, new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(new ByteArrayOutputStream()));
  }
}
