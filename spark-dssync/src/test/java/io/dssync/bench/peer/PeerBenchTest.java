package io.dssync.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.bench.train.TrainBenchCsv;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dssync bench peer} on tiny settings on the shared local-cluster: well-formed output. */
class PeerBenchTest {
  @TempDir
  Path out;

  @Test
  void dsSyncAndChunkedMllibRunOnTheSameSessionWithTheSameLayerSizes() throws Exception {
    PeerBench.Plan plan = PeerBench.plan(new String[] {"--epochs", "1", "--batch-size", "32",
        "--steps-per-stage", "2", "--target-accuracy", "0.05", "--mllib-max-iter", "2", "--mllib-chunk-iter", "1",
        "--warm-up", "false", "--out", out.toString(), "--slot-wait-ms", "20000"}, "dssync bench peer (test)");
    PrintStream quiet = new PrintStream(PrintStream.nullOutputStream());
    PeerBench.measure(TestSpark.session(), TestData.fashionMnist(512, 200), plan, quiet, System.err);

    Path dir = out.resolve("peer");
    TrainBenchCsv peer = TrainBenchCsv.read(dir.resolve("peer.csv"));
    peer.requireColumns(PeerBenchReport.COLUMNS);
    assertEquals(List.of("full", "random-g2", "mlp-l-bfgs-chunked", "mlp-l-bfgs-one-fit"),
        peer.rows().stream().map(r -> r.get("config")).toList());
    for (int i = 0; i < 4; i++) {
      assertEquals("784-256-128-10", peer.text(i, "layers"));
      // Same layer sizes on both sides means the same number of weights.
      assertEquals(peer.number(2, "weights"), peer.number(i, "weights"), "weights of row " + i);
      assertTrue(peer.number(i, "train_s") > 0);
      double accuracy = peer.number(i, "final_accuracy");
      assertTrue(accuracy >= 0 && accuracy <= 1);
    }
    for (int i = 0; i < 3; i++) {
      assertTrue(peer.number(i, "time_to_target_s") <= peer.number(i, "train_s"));
      peer.number(i, "time_to_target_ratio_vs_mllib");
    }
    assertEquals(1.0, peer.number(2, "time_to_target_ratio_vs_mllib"), 1e-9, "MLlib against itself");
    assertEquals(2, peer.number(2, "progress"), "iterations in all");
    assertEquals(2, peer.number(3, "progress"), "the one-fit reference runs as many iterations");
    assertTrue(peer.text(3, "time_to_target_s").isEmpty(), "a single fit has no time to target");

    TrainBenchCsv curve = TrainBenchCsv.read(dir.resolve("peer-curve.csv"));
    List<String> mllibProgress = curve.rows().stream().filter(r -> r.get("system").equals("mllib"))
        .map(r -> r.get("progress")).toList();
    assertEquals(List.of("1", "2"), mllibProgress, "one point per chunk of 1 iteration");
    TrainBenchCsv.requirePng(dir.resolve("accuracy-vs-time.png"));
    String summary = Files.readString(dir.resolve("summary.md"));
    assertTrue(summary.contains("setInitialWeights") && summary.contains("outside the clock"), summary);
  }
}
