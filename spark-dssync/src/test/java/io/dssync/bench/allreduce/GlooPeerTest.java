package io.dssync.bench.allreduce;

import io.dssync.bench.CsvRows;
import io.dssync.bench.ResultsFolder;
import io.dssync.bench.PythonPeer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Gloo peer of the allreduce benchmark: a real PyTorch Gloo run on a tiny plan (Debian's
 * python3-torch, installed by .ci/run), its rows and the ours/peer report.
 */
class GlooPeerTest {
  @TempDir Path out;

  private static final AllReducePlan PLAN =
      new AllReducePlan("gloo-test", 4, List.of(4096L, 1L << 20), List.of(2, 4), 1, 3, 60_000, 1024, 1);

  @Test
  void glooRunsThePlanAndItsRowsFeedTheRatioReport() throws Exception {
    List<AllReduceRow> gloo = GlooPeer.measure(PythonPeer.find("gloo"), PLAN, 1000.0);
    assertEquals(PLAN.cells().size(), gloo.size());
    for (int i = 0; i < gloo.size(); i++) {
      AllReduceRow r = gloo.get(i);
      AllReducePlan.Cell cell = PLAN.cells().get(i);
      assertEquals(cell.bytes(), r.bytes());
      assertEquals(cell.groupSize(), r.groupSize());
      assertTrue(r.timeMsMin() > 0 && r.timeMsMin() <= r.timeMsMedian(), "times of " + cell + ": " + r);
    }
    // Ours = the peer's own rows: every ratio must come out 1.
    List<String> verdicts = new ArrayList<>();
    AllReduceReport.write(ResultsFolder.create(out, "allreduce", "test"), "loopback", PLAN,
        new AllReduceRun(gloo, 1000.0, 1000.0), "gloo", gloo, verdicts);
    CsvRows ratios = CsvRows.read(out.resolve("allreduce/allreduce-vs-gloo.csv"));
    assertEquals(gloo.size(), ratios.size());
    for (int r = 0; r < ratios.size(); r++) {
      assertEquals(1.0, ratios.number(r, "ours_over_peer_time"), 1e-3);
      assertEquals(1.0, ratios.number(r, "ours_over_peer_busbw"), 1e-3);
    }
    assertTrue(verdicts.stream().anyMatch(v -> v.startsWith("g=2 at 4K: time ours") && v.contains("= 1.00 (meets")),
        "latency verdict: " + verdicts);
    assertTrue(Files.readString(out.resolve("allreduce/summary.md")).contains("## Against gloo"));
  }

  @Test
  void linesOfTheScriptBecomeRowsAndAMissingRankIsAnError() {
    AllReducePlan plan = new AllReducePlan("p", 2, List.of(4096L), List.of(2), 0, 2, 1000, 1024, 1);
    List<AllReduceRow> rows = GlooPeer.rows(plan, List.of("noise", "CELL 0 0 1.0,3.0", "CELL 0 1 2.0,1.0"), 50.0);
    assertEquals(1, rows.size());
    // Iteration times are the slower rank's: 2.0 and 3.0; median 2.5, min 2.0.
    assertEquals(2.5, rows.get(0).timeMsMedian(), 1e-9);
    assertEquals(2.0, rows.get(0).timeMsMin(), 1e-9);
    IllegalStateException missing = assertThrows(IllegalStateException.class,
        () -> GlooPeer.rows(plan, List.of("CELL 0 0 1.0,3.0"), 50.0));
    assertTrue(missing.getMessage().contains("did not report rank 1"), missing.getMessage());
  }

  @Test
  void withoutTorchTheErrorSaysHowToInstallIt() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> PythonPeer.find("gloo", List.of("no-such-python-dssync")));
    assertTrue(e.getMessage().contains("apt-get install python3-torch") && e.getMessage().contains("DSSYNC_PYTHON"),
        e.getMessage());
  }
}
