package io.dssync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.testing.TorchScripts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pieces of {@link TorchScriptThroughputBench} on two steps, so the hand-run benchmark cannot rot: the
 * export of small_cnn.py, its parameter count against the built-in cnn, both replicas, both PyTorch runs,
 * and the table with its ratios. Nothing about speed is asserted.
 */
class TorchScriptThroughputBenchTest {
  @TempDir
  Path dir;

  @Test
  void everyContestantRunsAndTheTableShowsBothRatios() {
    TorchScripts.requireTorch();
    Map<String, List<Double>> results = TorchScriptThroughputBench.run(dir, 1, 2, 1);
    assertEquals(List.of(TorchScriptThroughputBench.BUILT_IN, TorchScriptThroughputBench.SCRIPT,
        TorchScriptThroughputBench.EAGER, TorchScriptThroughputBench.SCRIPT_IN_PYTORCH), List.copyOf(results.keySet()));
    for (Map.Entry<String, List<Double>> e : results.entrySet()) {
      assertEquals(1, e.getValue().size(), e.getKey());
      assertTrue(e.getValue().get(0) > 0 && Double.isFinite(e.getValue().get(0)), e.getKey() + ": " + e.getValue());
    }
    String table = TorchScriptThroughputBench.table(results, 1, 2, 1);
    assertTrue(table.contains("ratio torchscript/built-in") && table.contains("torchscript/eager-pytorch")
        && table.contains("421,834 parameters"), table);
  }
}
