package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.replica.StepFootprint;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class StepMemoryCheckTest {
  private static final long GIB = 1L << 30;
  /** About the default CNN's: 0.5 MB of forward tensors per example. */
  private static final StepFootprint CNN = new StepFootprint(0, 506_000);

  @Test
  void stepsWhoseForwardTensorsAloneExceedTheHostsMemoryFailNamingTheBatchTheSizesAndABatchThatFits() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> StepMemoryCheck.require("cnn", 4, 15_000, CNN, 22 * GIB));
    assertEquals(ErrorKind.CONFIG, e.kind());
    String m = e.getMessage();
    assertTrue(m.startsWith("Invalid --batch-size = 15000: a training step of model cnn"), m);
    assertTrue(m.contains("holds 7.1 GiB of tensors per replica") && m.contains("28.3 GiB for the 4 replicas"), m);
    assertTrue(m.contains("for the 4 replicas on this host at once, more than the 22.0 GiB it has available"), m);
    long suggested = Long.parseLong(m.replaceAll(".*Use --batch-size (\\d+) or less.*", "$1"));
    assertEquals(Optional.empty(), StepMemoryCheck.require("cnn", 4, (int) suggested, CNN, 22 * GIB),
        "the suggested batch starts without a warning");
  }

  @Test
  void stepsThatMayNeedAlmostOrMoreThanTheAvailableMemoryStartWithAWarningAndABatchThatFits() {
    Optional<String> close = StepMemoryCheck.require("cnn", 4, 6_500, CNN, 22 * GIB);
    assertTrue(close.isPresent());
    String w = close.get();
    assertTrue(w.startsWith("--batch-size 6500: the 4 replicas of model cnn may need up to 20.6 GiB at once on this"
        + " host"), w);
    assertTrue(w.contains("close to the 22.0 GiB it has available; if the JVM is killed (exit code 137), use"
        + " --batch-size "), w);
    Optional<String> over = StepMemoryCheck.require("cnn", 4, 9_000, CNN, 22 * GIB);
    assertTrue(over.isPresent() && over.get().contains("up to 28.1 GiB at once") && over.get().contains("more than"
        + " the 22.0 GiB"), over.toString());
    assertEquals(Optional.empty(), StepMemoryCheck.require("cnn", 4, 6_000, CNN, 22 * GIB));
    assertEquals(Optional.empty(), StepMemoryCheck.require("cnn", 4, 64, CNN, 22 * GIB));
  }

  @Test
  void whenNotOneExamplePerReplicaFitsTheFixIsFewerWorkers() {
    StepFootprint huge = new StepFootprint(3 * GIB, 1_000);
    DsSyncException e = assertThrows(DsSyncException.class, () -> StepMemoryCheck.require("wrn-40-10", 8, 1, huge,
        16 * GIB));
    assertTrue(e.getMessage().contains("Use fewer --workers or a smaller model"), e.getMessage());
  }

  @Test
  void theDriverChecksLocalModeAndEachRankChecksItsHostForTheRanksThere() {
    assertTrue(Preflight.runsReplicasHere("local[4]") && Preflight.runsReplicasHere("local"));
    assertTrue(!Preflight.runsReplicasHere("local-cluster[2,1,3072]")
        && !Preflight.runsReplicasHere("spark://127.0.0.1:7077") && !Preflight.runsReplicasHere("yarn"));
    String[] hosts = {"10.0.0.1", "10.0.0.2", "10.0.0.1", "10.0.0.1"};
    // Three ranks on 10.0.0.1: 3 x 3,000 x 0.506 MB = 4.2 GiB of forward tensors against 4 GiB.
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> StepMemoryCheck.requireOnHost("cnn", 3_000, CNN, hosts, 2, 4 * GIB));
    assertTrue(e.getMessage().contains("4.2 GiB for the 3 replicas on executor host 10.0.0.1 at once, more than the"
        + " 4.0 GiB it has available"), e.getMessage());
    // One rank on 10.0.0.2: 1.4 GiB fits, with a warning (its peak and runtime: 2.5 GiB > 90% of 2.6 GiB).
    Optional<String> alone = StepMemoryCheck.requireOnHost("cnn", 3_000, CNN, hosts, 1, (long) (2.6 * GIB));
    assertTrue(alone.isPresent() && alone.get().contains("on executor host 10.0.0.2"), alone.toString());
  }

  @Test
  void onYarnAndKubernetesStepsBeyondTheExecutorsMemoryOverheadWarnWithTheSettingToRaise() {
    SparkConf conf = new SparkConf(false).set("spark.executor.cores", "2").set("spark.executor.memory", "4g");
    Optional<String> warning = StepMemoryCheck.overheadWarning(conf, "cnn", 1_000, CNN);
    assertTrue(warning.isPresent());
    String w = warning.get();
    assertTrue(w.startsWith("--batch-size 1000: the training steps of an executor's 2 replica(s) of model cnn may"
        + " need up to 1.5 GiB outside the JVM heap"), w);
    assertTrue(w.contains("more than its memory overhead (409 MiB)"), w);
    assertTrue(w.contains("Set spark.executor.memoryOverhead to 2057m or more"), w);
    assertEquals(Optional.empty(), StepMemoryCheck.overheadWarning(conf, "cnn", 64, CNN));
    assertEquals(Optional.empty(),
        StepMemoryCheck.overheadWarning(conf.clone().set("spark.executor.memoryOverhead", "2g"), "cnn", 1_000, CNN));
    assertTrue(StepMemoryCheck.inContainers("yarn") && StepMemoryCheck.inContainers("k8s://https://127.0.0.1:6443"));
    assertTrue(!StepMemoryCheck.inContainers("spark://127.0.0.1:7077") && !StepMemoryCheck.inContainers("local[4]"));
  }
}
