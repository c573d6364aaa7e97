package io.dssync.bench.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.bench.Benchmarks;
import io.dssync.bench.peer.PeerBench;
import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.CrossRackPrecision;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.train.TrainerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Flag handling and time-to-target arithmetic of the train and peer modes (no Spark). */
class TrainBenchFlagsTest {
  @Test
  void defaultPlanRunsEveryConfigurationWithFullFirstAndPassesTrainerSettingsOn() {
    TrainBench.Plan plan = TrainBench.plan(new String[] {"--learning-rate", "0.02", "--network", "throttled"}, "x");
    assertEquals(TrainBenchConfigs.ALL_NAMES, plan.configs().stream().map(TrainBenchConfigs.Sync::name).toList());
    TrainerConfig full = plan.configs().get(0).config(plan.base().get());
    assertEquals(4, full.groupSize(), "full is g = N");
    assertEquals(0.02, full.get(TrainerConfig.LEARNING_RATE));
    assertEquals(1, full.get(TrainerConfig.EVAL_EVERY), "every stage is evaluated");
    assertEquals(TrainBench.DEFAULT_STEPS_PER_STAGE, full.get(TrainerConfig.STEPS_PER_STAGE));
    TrainerConfig local = TrainBenchConfigs.named("local-sgd", 4, 7).config(plan.base().get());
    assertEquals(1, local.groupSize());
    assertEquals(7, local.get(TrainerConfig.GLOBAL_AVERAGE_PERIOD));
    assertEquals(1.0, local.get(TrainerConfig.OUTER_LEARNING_RATE), "plain averages");
    TrainerConfig diloco = TrainBenchConfigs.named("diloco", 4, 7).config(plan.base().get());
    assertEquals(1, diloco.groupSize());
    assertEquals(7, diloco.get(TrainerConfig.GLOBAL_AVERAGE_PERIOD));
    assertEquals(0.7, diloco.get(TrainerConfig.OUTER_LEARNING_RATE));
    assertEquals(0.9, diloco.get(TrainerConfig.OUTER_MOMENTUM));
    assertEquals("global", diloco.get(TrainerConfig.OUTER_AT));
    TrainerConfig noloco = TrainBenchConfigs.named("noloco", 4, 7).config(plan.base().get());
    assertEquals(2, noloco.groupSize());
    assertEquals("groups", noloco.get(TrainerConfig.OUTER_AT));
    assertEquals("throttled", plan.network());
    assertEquals(TrainBench.DEFAULT_TARGET, plan.target());
  }

  @Test
  void settingsTheBenchmarkVariesItselfAreRefusedNamingTheFlag() {
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> TrainBench.plan(new String[] {"--schedule", "full"}, "x"));
    assertEquals(ErrorKind.CONFIG, e.kind());
    assertTrue(e.getMessage().contains("--schedule") && e.getMessage().contains("--configs"), e.getMessage());
    DsSyncException model = assertThrows(DsSyncException.class,
        () -> PeerBench.plan(new String[] {"--model", "cnn"}, "x"));
    assertTrue(model.getMessage().contains("--model"), model.getMessage());
  }

  @Test
  void badValuesFailWithTheFlagAndTheValue() {
    assertMessage(new String[] {"--target-accuracy", "1.5"}, "--target-accuracy", "1.5");
    assertMessage(new String[] {"--global-every", "0"}, "--global-every", "0");
    assertMessage(new String[] {"--configs", "full,random-g3"}, "random-g3");
    assertMessage(new String[] {"--warm-up", "maybe"}, "--warm-up", "maybe");
    assertMessage(new String[] {"--rounds", "0"}, "--rounds", "0");
    assertMessage(new String[] {"--rounds", "21"}, "--rounds", "21");
    assertMessage(new String[] {"--network", "two racks"}, "--network");
    assertMessage(new String[] {"--learning-rate", "-1"}, "--learning-rate", "-1");
    assertMessage(new String[] {"--no-such-flag", "1"}, "--no-such-flag", "--configs");
    assertMessage(new String[] {"--epochs"}, "--epochs", "needs a value");
    DsSyncException solver = assertThrows(DsSyncException.class,
        () -> PeerBench.plan(new String[] {"--mllib-solver", "adam"}, "x"));
    assertTrue(solver.getMessage().contains("--mllib-solver"), solver.getMessage());
  }

  @Test
  void configurationsAWorkerCountCannotFormAreSkippedFromAllButRefusedWhenNamed() {
    TrainBench.Plan plan = TrainBench.plan(new String[] {"--workers", "2"}, "x");
    assertEquals(List.of("full", "random-g2", "butterfly-g2", "local-sgd", "group-avg-g2", "topology-g2", "auto"),
        plan.configs().stream().map(TrainBenchConfigs.Sync::name).toList());
    assertEquals(2, plan.skipped().size(), String.valueOf(plan.skipped()));
    assertMessage(new String[] {"--workers", "2", "--configs", "random-g4"}, "--configs", "random-g4");
    TrainBench.Plan named = TrainBench.plan(new String[] {"--configs", "random-g2,full"}, "x");
    assertEquals(List.of("full", "random-g2"), named.configs().stream().map(TrainBenchConfigs.Sync::name).toList(),
        "full runs first even when listed later");
  }

  @Test
  void aConfigurationWithAnAlgorithmSuffixRunsItsScheduleWithThatAllReduceBesideThePlainOne() {
    TrainBench.Plan plan =
        TrainBench.plan(new String[] {"--configs", "full-direct,full-ring,topology-g2-c2-ring"}, "x");
    assertEquals(List.of("full", "full-direct", "full-ring", "topology-g2-c2-ring"),
        plan.configs().stream().map(TrainBenchConfigs.Sync::name).toList());
    TrainerConfig full = plan.configs().get(0).config(plan.base().get());
    assertEquals(AllReduceAlgorithm.AUTO, full.allReduceAlgorithm(), "the run's --all-reduce, by default auto");
    TrainerConfig fullDirect = plan.configs().get(1).config(plan.base().get());
    TrainerConfig fullRing = plan.configs().get(2).config(plan.base().get());
    assertEquals(AllReduceAlgorithm.DIRECT, fullDirect.allReduceAlgorithm());
    assertEquals(AllReduceAlgorithm.RING, fullRing.allReduceAlgorithm());
    assertEquals(full.groupSize(), fullRing.groupSize(), "full-ring is full's schedule");
    TrainerConfig topology = plan.configs().get(3).config(plan.base().get());
    assertEquals(2, topology.get(TrainerConfig.CROSS_RACK_PERIOD));
    assertEquals(AllReduceAlgorithm.RING, topology.allReduceAlgorithm());
    assertMessage(new String[] {"--configs", "random-g3-ring"}, "random-g3");
  }

  @Test
  void aConfigurationEndingInFp16SendsHalvesAcrossRacksAndKeepsTheRestOfItsName() {
    TrainBench.Plan plan =
        TrainBench.plan(new String[] {"--configs", "topology-g2-c2,topology-g2-c2-fp16,auto-ring-fp16"}, "x");
    List<TrainerConfig> configs = plan.configs().stream().map(c -> c.config(plan.base().get())).toList();
    assertEquals(CrossRackPrecision.FP32, configs.get(0).crossRackPrecision(), "full: the run's default");
    assertEquals(CrossRackPrecision.FP32, configs.get(1).crossRackPrecision());
    assertEquals(CrossRackPrecision.FP16, configs.get(2).crossRackPrecision());
    assertEquals(2, configs.get(2).get(TrainerConfig.CROSS_RACK_PERIOD));
    assertEquals(CrossRackPrecision.FP16, configs.get(3).crossRackPrecision());
    assertEquals(AllReduceAlgorithm.RING, configs.get(3).allReduceAlgorithm());
    assertEquals("auto", configs.get(3).get(TrainerConfig.SCHEDULE));
    assertMessage(new String[] {"--configs", "topology-g2-fp16-c2"}, "topology-g2-fp16-c2");
  }

  @Test
  void timeToTargetIsTheTrainingTimeOfTheFirstEvaluationAtOrAboveTheTarget() {
    TrainBenchCurve curve = new TrainBenchCurve(List.of(new TrainBenchCurve.Point(10, 2.0, 0.5),
        new TrainBenchCurve.Point(20, 4.5, 0.71), new TrainBenchCurve.Point(30, 7.0, 0.69)));
    assertEquals(4.5, curve.timeToTarget(0.7));
    assertEquals(2.0, curve.timeToTarget(0.5));
    assertTrue(Double.isNaN(curve.timeToTarget(0.8)));
    assertEquals(0.69, curve.finalAccuracy());
    assertTrue(Double.isNaN(TrainBenchCurve.ratio(Double.NaN, 2)));
    assertEquals(0.5, TrainBenchCurve.ratio(1, 2));
    assertEquals("0.500", TrainBenchCurve.ratioText(1, 2, 9));
    assertTrue(TrainBenchCurve.ratioText(2, Double.NaN, 8).startsWith("< 0.250"),
        "an upper bound when B never got there");
    assertTrue(TrainBenchCurve.ratioText(Double.NaN, 2, 8).startsWith("n/a"));
  }

  @Test
  void overSeveralRoundsTheTargetIsJudgedOnTheMediansAndARoundThatNeverGotThereCountsAsTheSlowest() {
    assertEquals(1, TrainBench.plan(new String[] {}, "x").rounds());
    assertEquals(3, TrainBench.plan(new String[] {"--rounds", "3"}, "x").rounds());
    assertEquals(0.4, TrainBenchReport.median(new double[] {0.9, 0.4, 0.1}));
    assertEquals(0.5, TrainBenchReport.median(new double[] {0.6, 0.4}));
    String met = TrainBenchReport.medianLine("topology", List.of(new double[] {0.35, 0.2}, new double[] {0.62, -0.9},
        new double[] {0.41, 0.1}));
    assertEquals("- topology: time-to-target ratio vs full by round 0.350, 0.620, 0.410 (median 0.410), final"
        + " accuracy by round +0.20, -0.90, +0.10 points (median +0.10) -> met\n", met);
    String missed = TrainBenchReport.medianLine("random-g2", List.of(new double[] {0.5, 0},
        new double[] {Double.NaN, 0}, new double[] {Double.NaN, 0}));
    assertTrue(missed.contains("by round 0.500, not reached, not reached (median not reached)")
        && missed.endsWith("-> missed\n"), missed);
  }

  @Test
  void helpListsTheFlagsOfEachMode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    assertEquals(0, Benchmarks.run(new String[] {"train", "--help"}, out, out));
    assertEquals(0, Benchmarks.run(new String[] {"peer", "--help"}, out, out));
    String text = bytes.toString(StandardCharsets.UTF_8);
    for (String flag : List.of("--configs", "--global-every", "--target-accuracy", "--network", "--mllib-chunk-iter",
        "--mllib-reference")) {
      assertTrue(text.contains(flag), flag + " in\n" + text);
    }
  }

  private static void assertMessage(String[] args, String... parts) {
    DsSyncException e = assertThrows(DsSyncException.class, () -> TrainBench.plan(args, "x"));
    for (String p : parts) {
      assertTrue(e.getMessage().contains(p), "'" + p + "' in: " + e.getMessage());
    }
  }
}
