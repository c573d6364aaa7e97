package io.dssync.bench.train;

import io.dssync.bench.PythonPeer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.data.FashionMnist;
import io.dssync.errors.DsSyncException;
import io.dssync.testing.TestData;
import io.dssync.train.TrainerConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The torch-ddp peer of the train benchmark: a real PyTorch DDP run on a tiny subset (Debian's
 * python3-torch, installed by .ci/run), its EVAL lines as a curve, the ratio lines, its flag.
 */
class TrainBenchTorchDdpTest {
  @Test
  void settingsThePeerCannotReproduceAreRefusedBeforeItStarts() {
    TrainBenchTorchDdp.requireSupported(TrainerConfig.builder().set("--lr-schedule", "step").build());
    for (String[] flag : List.of(new String[] {"--lr-schedule", "onecycle"}, new String[] {"--lr-schedule", "linear"},
        new String[] {"--clip-norm", "1"}, new String[] {"--lr-milestones", "0.3"},
        new String[] {"--optimizer", "sgd-nesterov"})) {
      TrainerConfig config = TrainerConfig.builder().set(flag[0], flag[1]).build();
      DsSyncException e = assertThrows(DsSyncException.class, () -> TrainBenchTorchDdp.requireSupported(config));
      assertTrue(e.getMessage().contains(flag[0]) && e.getMessage().contains("--peer none"), e.getMessage());
    }
  }

  @Test
  void aTinyDdpRunEvaluatesAfterEveryStageAndAtTheEnd() {
    DatasetSplits data = TestData.fashionMnist(320, 100);
    TrainerConfig config = TrainBench.plan(new String[] {"--workers", "2", "--batch-size", "32", "--epochs", "1",
        "--steps-per-stage", "2", "--peer", "torch-ddp"}, "x").base().get().build();
    TrainBenchTorchDdp.Run run = TrainBenchTorchDdp.run(PythonPeer.find(TrainBenchTorchDdp.NAME), config, data,
        FashionMnist.cachedFiles(FashionMnist.defaultCacheDir()));
    assertEquals(5, run.steps(), "320 examples / (2 workers x 32) = 5 steps");
    // Stages of 2 steps end at steps 2 and 4; the last (short) stage at step 5.
    assertEquals(List.of(2L, 4L, 5L), run.curve().points().stream().map(TrainBenchCurve.Point::progress).toList());
    double previous = 0;
    for (TrainBenchCurve.Point p : run.curve().points()) {
      assertTrue(p.accuracy() >= 0 && p.accuracy() <= 1, "accuracy in [0, 1]: " + p);
      assertTrue(p.trainSeconds() > previous, "the training clock advances: " + run.curve());
      previous = p.trainSeconds();
    }
    assertTrue(run.trainSeconds() < run.wallSeconds(), "start-up and evaluation are outside the training clock");
  }

  @Test
  void evalLinesBecomeACurveReadLikeOursAndAMissingLastEvaluationIsAnError() {
    TrainBenchTorchDdp.Run run = TrainBenchTorchDdp.parse(List.of("TOTAL 6", "noise from torch", "EVAL 3 1.5 0.80 0.6",
        "EVAL 6 3.0 0.86 0.4"), 9.0);
    assertEquals(6, run.steps());
    assertEquals(3.0, run.curve().timeToTarget(0.85), 1e-12, "first evaluation at or above the target");
    assertEquals(1.5, run.curve().timeToTarget(0.8), 1e-12);
    assertTrue(Double.isNaN(run.curve().timeToTarget(0.9)));
    assertEquals(0.86, run.curve().finalAccuracy(), 1e-12);
    assertEquals(3.0, run.trainSeconds(), 1e-12);
    IllegalStateException cut = assertThrows(IllegalStateException.class,
        () -> TrainBenchTorchDdp.parse(List.of("TOTAL 6", "EVAL 3 1.5 0.80 0.6"), 1));
    assertTrue(cut.getMessage().contains("after its last step 6"), cut.getMessage());
    assertThrows(IllegalStateException.class, () -> TrainBenchTorchDdp.parse(List.of("TOTAL 6", "EVAL 6 x 0.8 1"), 1));
  }

  @Test
  void ratioLinesSayNotReachedAndBoundTheRatioFromTheWholeRun() {
    TrainBenchTorchDdp.Run ddp =
        TrainBenchTorchDdp.parse(List.of("TOTAL 4", "EVAL 2 2.0 0.70 1", "EVAL 4 4.0 0.86 1"), 5);
    TrainBenchCurve fast = new TrainBenchCurve(List.of(new TrainBenchCurve.Point(4, 3.0, 0.851)));
    assertEquals("full: time to 0.85 = 3.0 s; torch-ddp = 4.0 s; full/torch-ddp = 0.750",
        TrainBenchTorchDdp.ratioLine("full", fast, 3.0, ddp, 0.85));
    TrainBenchCurve never = new TrainBenchCurve(List.of(new TrainBenchCurve.Point(4, 6.0, 0.84)));
    String line = TrainBenchTorchDdp.ratioLine("random-g2", never, 6.0, ddp, 0.85);
    assertTrue(line.startsWith("random-g2: time to 0.85 = not reached (final accuracy 0.8400); torch-ddp = 4.0 s;"
        + " random-g2/torch-ddp = > 1.500"), line);
    String neither = TrainBenchTorchDdp.ratioLine("full", never, 6.0, ddp, 0.9);
    assertTrue(neither.contains("torch-ddp = not reached (final accuracy 0.8600)") && neither.contains("n/a"), neither);
  }

  @Test
  void withoutTorchTheErrorSaysHowToInstallItAndTheFlagIsChecked() {
    DsSyncException missing = assertThrows(DsSyncException.class,
        () -> PythonPeer.find(TrainBenchTorchDdp.NAME, List.of("no-such-python-dssync")));
    assertTrue(missing.getMessage().contains("torch-ddp")
        && missing.getMessage().contains("apt-get install python3-torch"), missing.getMessage());
    assertFalse(TrainBench.plan(new String[0], "x").torchDdp(), "none is the default");
    DsSyncException unknown = assertThrows(DsSyncException.class,
        () -> TrainBench.plan(new String[] {"--peer", "gloo"}, "x"));
    assertTrue(unknown.getMessage().contains("gloo") && unknown.getMessage().contains("torch-ddp"),
        unknown.getMessage());
    DsSyncException mlp = assertThrows(DsSyncException.class,
        () -> TrainBench.plan(new String[] {"--peer", "torch-ddp", "--model", "mlp"}, "x"));
    assertTrue(mlp.getMessage().contains("--model cnn"), mlp.getMessage());
  }
}
