package io.dssync.bench.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dssync bench train} on tiny settings on the shared local-cluster: well-formed output. */
class TrainBenchTest {
  // Butterfly and group averaging are the same engine with other settings; their plans are checked
  // in TrainBenchFlagsTest. Three configurations keep this test short on a shared 2-core machine.
  /** The mlp's trainable floats: 784x256+256 + 256x128+128 + 128x10+10. */
  private static final int MLP_FLOATS = 235_146;

  @TempDir
  Path out;

  @Test
  void everyScheduleKindRunsAndTheTablesCompareAgainstFullOfTheSameRun() throws Exception {
    List<String> configs = List.of("full", "random-g2", "local-sgd");
    TrainBench.Plan plan = TrainBench.plan(new String[] {"--model", "mlp", "--epochs", "1", "--batch-size", "32",
        "--steps-per-stage", "2", "--global-every", "1", "--target-accuracy", "0.05", "--network", "tiny-net",
        "--configs", String.join(",", configs), "--warm-up", "false", "--out", out.toString(),
        "--slot-wait-ms", "20000"}, "dssync bench train (test)");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    PrintStream printer = new PrintStream(console, true, StandardCharsets.UTF_8);
    DatasetSplits data = TestData.fashionMnist(512, 200);
    List<TrainBenchOutcome> outcomes = TrainBench.runOurs(TestSpark.session(), data, plan, System.err);
    TrainBench.report(plan, data, outcomes, null, printer);

    Path dir = out.resolve("train");
    TrainBenchCsv runs = TrainBenchCsv.read(dir.resolve("runs.csv"));
    runs.requireColumns("network", "schedule", "group_size", "global_every", "workers", "steps", "steps_per_stage",
        "wall_s",
        "time_to_target_s", "final_accuracy", "samples_per_s", "compute_ms_per_step", "sync_ms_per_step",
        "sync_wait_ms_per_step", "state_floats", "time_to_target_ratio_vs_full", "accuracy_diff_vs_full_pts");
    assertEquals(configs, runs.rows().stream().map(r -> r.get("config")).toList());
    for (int i = 0; i < configs.size(); i++) {
      assertEquals("tiny-net", runs.text(i, "network"));
      assertEquals(4, runs.number(i, "workers"));
      assertEquals(4, runs.number(i, "steps"), "512 examples / (4 workers x 32) = 4 steps");
      assertEquals(2, runs.number(i, "steps_per_stage"));
      assertEquals(MLP_FLOATS, runs.number(i, "state_floats"));
      assertTrue(runs.number(i, "compute_ms_per_step") > 0);
      assertTrue(runs.number(i, "sync_ms_per_step") >= 0);
      double wait = runs.number(i, "sync_wait_ms_per_step");
      assertTrue(wait >= 0 && wait <= runs.number(i, "sync_ms_per_step"), "the wait is part of the sync: " + wait);
      assertTrue(runs.number(i, "samples_per_s") > 0);
      double accuracy = runs.number(i, "final_accuracy");
      assertTrue(accuracy >= 0 && accuracy <= 1, "accuracy in [0, 1]");
      // Every stage is evaluated, so a target of 5% is reached at the first stage, inside the run.
      assertTrue(runs.number(i, "time_to_target_s") > 0);
      assertTrue(runs.number(i, "time_to_target_s") <= runs.number(i, "train_s"));
      assertTrue(runs.number(i, "train_s") <= runs.number(i, "wall_s"), "training time excludes evaluation");
      runs.number(i, "time_to_target_ratio_vs_full");
      runs.number(i, "accuracy_diff_vs_full_pts");
    }
    assertEquals(1.0, runs.number(0, "time_to_target_ratio_vs_full"), 1e-9, "full against itself");
    assertEquals(0.0, runs.number(0, "accuracy_diff_vs_full_pts"), 1e-9);
    assertEquals(4, runs.number(0, "group_size"), "full is g = N");
    assertEquals(1, runs.number(2, "group_size"), "local SGD is g = 1");
    assertEquals(1, runs.number(2, "global_every"));
    assertEquals(0, runs.number(1, "global_every"));
    assertEquals("n/a", runs.text(0, "meets_target"));
    assertTrue(List.of("met", "missed").contains(runs.text(1, "meets_target")));

    TrainBenchCsv curve = TrainBenchCsv.read(dir.resolve("curve.csv"));
    assertEquals(configs.size() * 2, curve.rows().size(), "two stages of two steps per configuration");
    TrainBenchCsv.requirePng(dir.resolve("accuracy-vs-time.png"));
    String summary = Files.readString(dir.resolve("summary.md"));
    assertTrue(summary.contains("Target check") && summary.contains("accuracy-vs-time.png")
        && summary.contains("evaluation between stages") && summary.contains("`--rounds 3` alternates"), summary);
    String printed = console.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("random-g2:") && printed.contains("summary.md"), printed);

    // The same outcomes with a torch-ddp run (its lines as the script prints them): one more row,
    // curve and chart series, and a ratio line per configuration.
    TrainBenchTorchDdp.Run ddp = TrainBenchTorchDdp.parse(List.of("TOTAL 4", "EVAL 2 0.5 0.30 2.0",
        "EVAL 4 1.0 0.40 1.9"), 3.0);
    ByteArrayOutputStream withPeer = new ByteArrayOutputStream();
    TrainBench.report(plan, data, outcomes, ddp, new PrintStream(withPeer, true, StandardCharsets.UTF_8));
    TrainBenchCsv peerRuns = TrainBenchCsv.read(dir.resolve("runs.csv"));
    assertEquals(configs.size() + 1, peerRuns.rows().size());
    int last = configs.size();
    assertEquals("torch-ddp", peerRuns.text(last, "config"));
    assertEquals(0.5, peerRuns.number(last, "time_to_target_s"), 1e-9);
    assertEquals(0.4, peerRuns.number(last, "final_accuracy"), 1e-9);
    assertEquals(4 * 4 * 32 / 1.0, peerRuns.number(last, "samples_per_s"), 1e-6, "steps x workers x batch / train_s");
    assertEquals(0.5 / runs.number(0, "time_to_target_s"), peerRuns.number(last, "time_to_target_ratio_vs_full"),
        1e-3 * peerRuns.number(last, "time_to_target_ratio_vs_full"));
    assertEquals(configs.size() * 2 + 2, TrainBenchCsv.read(dir.resolve("curve.csv")).rows().size());
    String peerSummary = Files.readString(dir.resolve("summary.md"));
    assertTrue(peerSummary.contains("### Against torch-ddp") && peerSummary.contains("random-g2/torch-ddp = "),
        peerSummary);
    String peerPrinted = withPeer.toString(StandardCharsets.UTF_8);
    for (String config : configs) {
      assertTrue(peerPrinted.contains(config + ": time to 0.05 = ") && peerPrinted.contains(config + "/torch-ddp = "),
          peerPrinted);
    }
  }

  /** Round 2 runs full last; every row is compared with full of its own round; the check reads the medians. */
  @Test
  void everyRoundRunsTheConfigurationsInTurnReversedAndComparesEachWithItsOwnRoundsFull() throws Exception {
    TrainBench.Plan plan = TrainBench.plan(new String[] {"--model", "mlp", "--epochs", "1", "--batch-size", "32",
        "--steps-per-stage", "2", "--target-accuracy", "0.05", "--network", "tiny-net", "--configs", "full,random-g2",
        "--warm-up", "false", "--rounds", "2", "--out", out.toString(), "--slot-wait-ms", "20000"}, "x");
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    DatasetSplits data = TestData.fashionMnist(512, 200);
    List<TrainBenchOutcome> outcomes = TrainBench.runOurs(TestSpark.session(), data, plan,
        new PrintStream(log, true, StandardCharsets.UTF_8));
    String progress = log.toString(StandardCharsets.UTF_8);
    assertTrue(progress.contains("round 1 of 2: full, random-g2") && progress.contains("round 2 of 2: random-g2, full"),
        progress);
    assertTrue(progress.indexOf("random-g2: schedule=random", progress.indexOf("round 2 of 2"))
        < progress.indexOf("full: schedule=full", progress.indexOf("round 2 of 2")), "round 2 ran full last");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    TrainBench.report(plan, data, outcomes, null, new PrintStream(console, true, StandardCharsets.UTF_8));

    TrainBenchCsv runs = TrainBenchCsv.read(out.resolve("train/runs.csv"));
    assertEquals(List.of("full", "random-g2", "full", "random-g2"),
        runs.rows().stream().map(r -> r.get("config")).toList());
    assertEquals(List.of("1", "1", "2", "2"), runs.rows().stream().map(r -> r.get("round")).toList());
    for (int row : new int[] {1, 3}) {
      assertEquals(1.0, runs.number(row - 1, "time_to_target_ratio_vs_full"), 1e-9,
          "full of each round against itself");
      double ownFull = runs.number(row - 1, "time_to_target_s");
      assertEquals(runs.number(row, "time_to_target_s") / ownFull, runs.number(row, "time_to_target_ratio_vs_full"),
          1e-3 * runs.number(row, "time_to_target_ratio_vs_full"), "row " + row + " against its own round's full");
    }
    TrainBenchCsv curve = TrainBenchCsv.read(out.resolve("train/curve.csv"));
    assertEquals(List.of("1", "1", "1", "1", "2", "2", "2", "2"),
        curve.rows().stream().map(r -> r.get("round")).toList());
    String summary = Files.readString(out.resolve("train/summary.md"));
    assertTrue(summary.contains("in 2 rounds (`round`)") && summary.contains("- random-g2: time-to-target ratio vs full"
        + " by round ") && summary.contains("(median ") && !summary.contains("One round runs"), summary);
  }
}
