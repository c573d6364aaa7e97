package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.CrossRackPrecision;
import io.dssync.schedule.AutoPlanner;
import io.dssync.schedule.LinkMeasurements;
import io.dssync.schedule.ProbeRounds;
import io.dssync.schedule.ProbeScope;
import io.dssync.schedule.ScheduleKind;
import io.dssync.schedule.ScheduleSpec;
import io.dssync.schedule.TestbedLinks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The driver's auto schedule fed the workers' link samples of a 2 x 2 testbed (120 MB/s inside
 * racks, an uplink of 12 MB/s when planned): it re-plans only on a change seen in two probes in a row.
 */
class AutoScheduleTest {
  private static final long MODEL_BYTES = 1_700_000;
  /** Every rank's compute time of a step, as the stages report it. */
  private static final float COMPUTE_MS = 160;
  /** As the testbed runs train: stages of 8 steps. */
  private static final int STEPS_PER_STAGE = 8;

  private static AutoSchedule planned() {
    AutoSchedule auto = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 1, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    assertTrue(probe(auto, 12, 0), "the first probe plans");
    assertEquals(ScheduleKind.TOPOLOGY, auto.plan().spec().kind(), auto.plan().describe());
    return auto;
  }

  /** One probing stage whose workers measured an uplink of {@code uplinkMBps}; true when it (re-)planned. */
  private static boolean probe(AutoSchedule auto, double uplinkMBps, long step) {
    return auto.update(results(TestbedLinks.of(2, 2, 120, uplinkMBps)), 160, MODEL_BYTES, 10, 10 + step, step);
  }

  /** What the four workers of a probing stage report: each its row of {@code links}. */
  static List<WorkerResult> results(LinkMeasurements links) {
    return results(links, new int[links.workers()][links.workers()]);
  }

  /** The same, each pair's bandwidth messages of {@code floats[rank][peer]} floats. */
  static List<WorkerResult> results(LinkMeasurements links, int[][] floats) {
    return results(links, floats, 100);
  }

  /** The same, the probe having taken {@code probeMs} on every rank. */
  static List<WorkerResult> results(LinkMeasurements links, int[][] floats, double probeMs) {
    return results(links, floats, probeMs, ProbeRounds.rounds(links.workers()));
  }

  /** The same from a probe of {@code rounds} rounds. */
  static List<WorkerResult> results(LinkMeasurements links, int[][] floats, double probeMs, int rounds) {
    int n = links.workers();
    List<WorkerResult> out = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      LinkSample sample = new LinkSample(links.hosts()[r], links.latencyMs()[r], links.bandwidthMBps()[r],
          floats[r], rounds, probeMs);
      out.add(new WorkerResult(r, "exec" + r, new float[1], new float[] {COMPUTE_MS}, new float[1], new float[1],
          new float[1], new long[1], 0f, 0, null, sample, false));
    }
    return out;
  }

  @Test
  void theFirstProbeGetsAFixedTimePerRound() {
    AutoSchedule fresh = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 3, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    double firstMs = 3 * AutoSchedule.FIRST_PROBE_MS_PER_ROUND;
    assertEquals(firstMs, fresh.probeBudgetMs(10, 10, 20, 4), 1e-9,
        "the first probe: a fixed time per round, 3 rounds");
    AutoSchedule auto = planned();
    assertEquals(firstMs, auto.probeBudgetMs(Double.NaN, 10, 20, 4), 1e-9, "no stage measured (resumed)");
  }

  @Test
  void aLaterProbeGetsTwoPercentOfTheTrainingToTheNextProbeLessWhatTheProbesTookSoFar() {
    AutoSchedule auto = planned(); // R = 1; its first probe took 100 ms
    assertEquals(100, auto.probesMs(), 1e-9);
    // 2% of (2 s trained + one 10 s stage) = 240 ms, less the 100 ms spent.
    assertEquals(140, auto.probeBudgetMs(10, 2, 20, 4), 1e-9, "the first probe's overrun is paid back");
    // 2% of (50 + 10) s = 1,200 ms, less 100: 1,100 ms of credit, but at most the stage's own 2%.
    assertEquals(200, auto.probeBudgetMs(10, 50, 20, 4), 1e-9, "credit is not spent in one burst");

    AutoSchedule testbed = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 3, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    assertTrue(testbed.update(results(TestbedLinks.of(2, 2, 120, 12), new int[4][4], 1309), 160, MODEL_BYTES, 9.3,
        9.3, 8));
    // Three 8 s stages later: 2% of (25.3 + 3 x 8) s = 986 ms, all spent by the 1,309 ms first probe.
    assertEquals(0, testbed.probeBudgetMs(8, 25.3, 15, 4), 1e-9, "nothing left: the floor, the fixed messages only");
    // 2% of (50 + 3 x 8) s = 1,480 ms less 1,309.
    assertEquals(171, testbed.probeBudgetMs(8, 50, 15, 4), 1e-9);
    // At the last stage only it counts: 2% of (100 + 8) s = 2,160 ms less 1,309, but at most 2% of 8 s.
    assertEquals(160, testbed.probeBudgetMs(8, 100, 1, 4), 1e-9, "the stages left, not R");
  }

  @Test
  void probesThatTakeTheirBudgetsEndAFitWithinTwoPercentOfItsTimeAfterAnOverrunningFirstProbe() {
    // The 3 x 2 testbed's fit: 18 stages of 8 s, R = 3, a first probe of 1,309 ms, and later probes
    // that take their budget but never less than 150 ms (each pair's fixed messages).
    AutoSchedule auto = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 6, 2, 1, 0, 42), 3, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    LinkMeasurements links = TestbedLinks.of(3, 2, 120, 12);
    double trained = 0;
    List<Double> probes = new ArrayList<>();
    for (int stage = 0; stage < 18; stage++) {
      double probeMs = 0;
      if (stage % 3 == 0) {
        probeMs = stage == 0 ? 1309 : Math.max(150, auto.probeBudgetMs(8, trained, 18 - stage, 6));
        probes.add(probeMs);
      }
      trained += 8 + probeMs / 1e3;
      if (probeMs > 0) {
        auto.update(results(links, new int[6][6], probeMs), 160, MODEL_BYTES, 8 + probeMs / 1e3, trained, stage);
      }
    }
    assertEquals(List.of(1309.0, 150.0, 150.0), probes.subList(0, 3), "two probes at the floor pay the first back");
    assertTrue(auto.probesMs() <= 0.02 * trained * 1e3, auto.probesMs() + " ms of " + trained + " s " + probes);
    assertTrue(auto.probesMs() >= 0.015 * trained * 1e3, "later probes use what is left " + probes);
  }

  @Test
  void theFirstStageAndEveryRthProbeButNeverALaterProbeInTheLastStage() {
    AutoSchedule auto = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 3, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    // Nothing measured yet, so nothing to afford: only the schedule decides.
    List<Integer> probing = IntStream.range(0, 16).filter(s -> auto.probesAt(s, 0, 16, 8, 8.0 * s, 4)).boxed()
        .toList();
    assertEquals(List.of(0, 3, 6, 9, 12), probing, "stage 15 is the last: its probe could plan for nothing");
    AutoSchedule resumed = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 3, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    assertEquals(List.of(2, 5), IntStream.range(2, 7).filter(s -> resumed.probesAt(s, 2, 7, 8, 8.0 * s, 4)).boxed()
        .toList(), "counted from the stage the fit resumed at");
    AutoSchedule single = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 3, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    assertTrue(single.probesAt(0, 0, 1, Double.NaN, 0, 4), "a one-stage fit still gets its first probe");
  }

  @Test
  void laterProbesWaitUntilTheShareCanPayForThemSoAllProbesStayWithinTwoPercent() {
    // The 3 x 2 testbed's fit: 16 stages of 7.5 s (evaluation included), R = 3, a first probe of
    // 1,250 ms over 5 rounds, later probes of 400 ms whatever their budget (their fixed messages).
    AutoSchedule auto = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 6, 2, 1, 0, 42), 3, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    LinkMeasurements links = TestbedLinks.of(3, 2, 120, 12);
    double trained = 0;
    double lastStage = Double.NaN;
    List<Integer> probing = new ArrayList<>();
    for (int stage = 0; stage < 16; stage++) {
      double probeMs = 0;
      if (auto.probesAt(stage, 0, 16, lastStage, trained, 6)) {
        probing.add(stage);
        probeMs = stage == 0 ? 1250 : 400;
      }
      lastStage = 7.5 + probeMs / 1e3;
      trained += lastStage;
      if (probeMs > 0) {
        int rounds = stage == 0 ? 5 : 2;
        auto.update(results(links, new int[6][6], probeMs, rounds), 160, MODEL_BYTES, lastStage, trained, stage);
      }
    }
    assertTrue(probing.size() >= 3, "later probes still run: " + probing);
    assertTrue(auto.probesMs() <= 0.02 * trained * 1e3, auto.probesMs() + " ms of " + trained + " s, " + probing);
    // Every R stages regardless (0, 3, 6, 9, 12) the same probes would take 2,850 ms, 2.3%.
    assertTrue(probing.size() < 5, "some due probes waited: " + probing);
  }

  @Test
  void aLaterProbeStartsEachPairWhereTheLastProbeSettled() {
    AutoSchedule auto = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 1, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    assertEquals(null, auto.probeStartFloats(4), "the first probe starts small");
    int big = 4 * ProbeSizing.START_FLOATS;
    int[][] floats = new int[4][4];
    for (int r = 0; r < 4; r++) {
      for (int p = 0; p < 4; p++) {
        floats[r][p] = r / 2 == p / 2 ? ProbeSizing.MAX_FLOATS : big; // in-rack pairs grew further
      }
    }
    auto.update(results(TestbedLinks.of(2, 2, 120, 12), floats), 160, MODEL_BYTES, 10, 10, 0);
    int[][] start = auto.probeStartFloats(4);
    assertEquals(big, start[0][2]);
    assertEquals(big, start[2][0]);
    assertEquals(ProbeSizing.MAX_FLOATS, start[3][2]);
    assertEquals(null, auto.probeStartFloats(3), "an elastic pool of another size starts small");
  }

  @Test
  void aPairThatReadMoreThanTwiceSlowerStartsItsNextProbeSmallerByTheSameFactor() {
    int s = ProbeSizing.START_FLOATS;
    int[][] floats = {{0, 16 * s}, {16 * s, 0}};
    double[][] fifth = PairReadings.changes(new double[][] {{0, 10}, {10, 0}}, new double[][] {{0, 2}, {2, 0}}, null);
    int[][] fivefold = PairReadings.shrunkAfterDrops(floats, fifth);
    assertEquals(16 * s / 5, fivefold[0][1], 1, "a 5x drop: a fifth of the size");
    assertEquals(fivefold[0][1], fivefold[1][0], "both sides of the pair start alike");
    assertEquals(s, PairReadings.shrunkAfterDrops(new int[][] {{0, 2 * s}, {2 * s, 0}}, fifth)[0][1],
        "never below the start size");
  }

  @Test
  void changesWithinTwiceFasterLinksAndUnmetPairsKeepTheirSizes() {
    int[][] floats = {{0, 64 * 1024}, {64 * 1024, 0}};
    double[][] before = {{0, 10}, {10, 0}};
    for (double[][] now : new double[][][] {{{0, 5.5}, {5.5, 0}}, {{0, 40}, {40, 0}}, {{0, 0}, {0, 0}}}) {
      assertArrayEquals(floats, PairReadings.shrunkAfterDrops(floats, PairReadings.changes(before, now, null)));
    }
    assertArrayEquals(floats, PairReadings.shrunkAfterDrops(floats,
        PairReadings.changes(null, new double[][] {{0, 1}, {1, 0}}, null)), "nothing to compare with");
  }

  @Test
  void aPairTheProbeDidNotMeetTakesTheChangeOfThePairsItMetBetweenTheSameRacks() {
    double[][] before = {{0, 100, 10, 10}, {100, 0, 10, 10}, {10, 10, 0, 100}, {10, 10, 100, 0}};
    double[][] now = new double[4][4]; // rounds met 0-1, 2-3 (in rack) and 0-2, 1-3 (across), not 0-3, 1-2
    now[0][1] = now[1][0] = now[2][3] = now[3][2] = 100;
    now[0][2] = now[2][0] = 1;
    now[1][3] = now[3][1] = 2;
    double[][] change = PairReadings.changes(before, now, new int[] {0, 0, 1, 1});
    assertEquals(0.15, change[0][3], 1e-9, "the median of 0.1 and 0.2");
    assertEquals(0.15, change[2][1], 1e-9);
    assertEquals(1, change[0][1], 1e-9);
    assertEquals(0, PairReadings.changes(before, now, null)[0][3], "without racks nothing is known of it");
  }

  /** Per pair, the sizes a first probe on the 2 x 2 testbed settled on: 4 MiB in a rack, 2 MiB across. */
  private static int[][] settledOnTheTestbed() {
    int[][] floats = new int[4][4];
    for (int r = 0; r < 4; r++) {
      for (int p = 0; p < 4; p++) {
        floats[r][p] = r / 2 == p / 2 ? ProbeSizing.MAX_FLOATS : 16 * ProbeSizing.START_FLOATS;
      }
    }
    return floats;
  }

  /** Planned from a first probe that settled on {@link #settledOnTheTestbed}, over a 12 MB/s uplink. */
  private static AutoSchedule plannedWithSettledSizes() {
    AutoSchedule auto = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 1, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    auto.update(results(TestbedLinks.of(2, 2, 120, 12), settledOnTheTestbed()), 160, MODEL_BYTES, 10, 10, 0);
    return auto;
  }

  @Test
  void afterAFivefoldUplinkDropTheCrossRackPairsStartTheConfirmingProbeSmaller() {
    AutoSchedule auto = plannedWithSettledSizes();
    int[][] floats = settledOnTheTestbed();
    assertEquals(16 * ProbeSizing.START_FLOATS, auto.probeStartFloats(4)[0][2], "no drop yet");
    assertFalse(auto.update(results(TestbedLinks.of(2, 2, 120, 2.4), floats), 160, MODEL_BYTES, 10, 20, 8));
    int[][] next = auto.probeStartFloats(4);
    assertEquals(16 * ProbeSizing.START_FLOATS / 5, next[0][2], 1, "the uplink read 5x slower");
    assertEquals(next[0][2], next[2][0]);
    assertEquals(ProbeSizing.MAX_FLOATS, next[0][1], "in-rack pairs read as before");
    assertTrue(auto.probeScope(4).isFull(), "the confirming probe still meets every pair");
    assertTrue(auto.update(results(TestbedLinks.of(2, 2, 120, 2.4), next), 160, MODEL_BYTES, 10, 30, 16),
        "and still re-plans");
    assertEquals(next[0][2], auto.probeStartFloats(4)[0][2], "the same slow uplink keeps the smaller size");
  }

  @Test
  void aProbeOfFewRoundsThatSeesTheDropStartsTheCrossRackPairsItDidNotMeetSmallerToo() {
    AutoSchedule auto = plannedWithSettledSizes();
    int[][] floats = settledOnTheTestbed();
    int[] rounds = auto.probeScope(4).rounds(auto.plan().measured().hosts());
    assertEquals(2, rounds.length, "a later probe meets each rack link once");
    LinkMeasurements slow = TestbedLinks.partial(TestbedLinks.of(2, 2, 120, 2.4), rounds);
    int[][] met = new int[4][4];
    for (int r = 0; r < 4; r++) {
      for (int p = 0; p < 4; p++) {
        met[r][p] = slow.bandwidthMBps()[r][p] > 0 ? floats[r][p] : 0;
      }
    }
    assertFalse(auto.update(results(slow, met, 100, rounds.length), 160, MODEL_BYTES, 10, 20, 8));
    int[][] next = auto.probeStartFloats(4);
    for (int r = 0; r < 4; r++) {
      for (int p = 0; p < 4; p++) {
        if (r / 2 != p / 2) {
          assertEquals(16 * ProbeSizing.START_FLOATS / 5, next[r][p], 1, "cross-rack pair " + r + "-" + p);
        }
      }
    }
  }

  @Test
  void aPairsBandwidthIsItsBytesOverTheMeanOfBothSidesTimes() {
    // 4 MiB in 33.6 ms at 125 MB/s; rank 1 started its swap 28 ms late: it read 5.6 ms, rank 0 61.6 ms.
    double bytes = 4 * 1024 * 1024;
    double late = bytes / 1e6 / 0.0056;
    double early = bytes / 1e6 / 0.0616;
    double[][] read = {{0, early, 0}, {late, 0, 90}, {0, 0, 0}};
    double[][] paired = PairReadings.paired(read);
    assertEquals(bytes / 1e6 / 0.0336, paired[0][1], 1e-6, "late " + late + ", early " + early);
    assertEquals(paired[0][1], paired[1][0], 0);
    assertEquals(90, paired[1][2], 0, "a pair only one side measured keeps that reading");
    assertEquals(late, read[1][0], 0, "the workers' readings are left as they were");
  }

  @Test
  void theRanksMakeTheFirstPlanAndThatOfAPoolOfAnotherSizeAndTheDriverMakesTheSame() {
    AutoSchedule fresh = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 1, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    assertEquals(4, fresh.firstPlanSpec(4).workers(), "before any plan the probing stage's ranks plan");
    AutoSchedule auto = planned();
    assertEquals(null, auto.firstPlanSpec(4), "later probes: the driver re-plans");
    assertEquals(3, auto.firstPlanSpec(3).workers(), "an elastic pool of 3: its ranks plan for 3");
    LinkMeasurements testbed = TestbedLinks.of(2, 2, 120, 12);
    List<WorkerResult> results = results(testbed);
    float[][] rows = results.stream().map(r -> FirstPlan.row(r.links(), COMPUTE_MS)).toArray(float[][]::new);
    AutoPlanner.Plan ranks = FirstPlan.plan(rows, testbed.hosts(), fresh.firstPlanSpec(4), MODEL_BYTES,
        STEPS_PER_STAGE, AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    assertTrue(fresh.update(results, 999, MODEL_BYTES, 10, 10, 8), "the first probing stage sets the plan");
    assertEquals(ranks.describe(), fresh.plan().describe(), "the driver's plan is the one the ranks ran");
  }

  @Test
  void aStageOfAnElasticPoolOfAnotherSizeProbesAtOnceWithAFirstProbesBudget() {
    AutoSchedule auto = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 5, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    assertTrue(auto.probesAt(0, 0, 16, Double.NaN, 0, 4));
    assertTrue(probe(auto, 12, 8));
    assertFalse(auto.probesAt(1, 0, 16, 10, 10, 4), "the plan's 4 workers: the next probe is due at stage 5");
    assertTrue(auto.probesAt(1, 0, 16, 10, 10, 3), "3 workers left: plan for them now");
    assertEquals(AutoSchedule.FIRST_PROBE_MS_PER_ROUND * ProbeRounds.rounds(3), auto.probeBudgetMs(10, 10, 15, 3),
        1e-9, "every pair is met");
    assertTrue(auto.probeScope(3).isFull());
  }

  @Test
  void oneOutlierProbeKeepsThePlan() {
    AutoSchedule auto = planned();
    AutoPlanner.Plan first = auto.plan();
    assertFalse(probe(auto, 2.4, 8), "one probe 5x slower");
    assertFalse(probe(auto, 12, 16));
    assertFalse(probe(auto, 2.4, 24), "again one probe, after a good one");
    assertSame(first, auto.plan());
  }

  @Test
  void aPersistentFivefoldDropReplansAtTheSecondProbe() {
    AutoSchedule auto = planned();
    AutoPlanner.Plan first = auto.plan();
    assertFalse(probe(auto, 2.4, 8));
    assertTrue(probe(auto, 2.4, 16));
    AutoPlanner.Plan next = auto.plan();
    assertNotSame(first, next);
    assertEquals(TestbedLinks.of(2, 2, 120, 2.4).rackPairBandwidth(next.racks()).get("rack0<->rack1"),
        next.measured().rackPairBandwidth(next.racks()).get("rack0<->rack1"), 1e-9,
        "the new plan comes from the probe that confirmed the change");
    // The new plan's measurements are the reference now: the same slow uplink keeps it.
    assertFalse(probe(auto, 2.4, 24));
    assertFalse(probe(auto, 2.4, 32));
    assertSame(next, auto.plan());
  }

  @Test
  void aWobbleWithinOnePointFiveNeverReplans() {
    AutoSchedule auto = planned();
    AutoPlanner.Plan first = auto.plan();
    for (int i = 1; i <= 4; i++) {
      assertFalse(probe(auto, i % 2 == 0 ? 18 : 8, 8L * i), "probe " + i);
    }
    assertSame(first, auto.plan());
  }

  /** The stage's probe as the tasks run it: the rounds {@code scope} gives, the other pairs read 0. */
  private static boolean probeAsScoped(AutoSchedule auto, LinkMeasurements links, long step) {
    int[] rounds = auto.probeScope(links.workers()).rounds(links.hosts());
    return auto.update(results(TestbedLinks.partial(links, rounds), new int[links.workers()][links.workers()], 100,
        rounds.length), 160, MODEL_BYTES, 10, 10 + step, step);
  }

  @Test
  void laterProbesMeetFewPairsUntilALinkIsWatchedAndOnlyAProbeOfEveryPairReplans() {
    AutoSchedule fresh = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 1, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    assertTrue(fresh.probeScope(4).isFull(), "the first probe finds the racks from every pair");
    AutoSchedule auto = planned();
    AutoPlanner.Plan first = auto.plan();
    assertEquals(2, auto.probeScope(4).rounds(first.measured().hosts()).length, "2 of 3 rounds");
    assertTrue(auto.probeScope(3).isFull(), "an elastic pool of another size");
    assertFalse(probeAsScoped(auto, TestbedLinks.of(2, 2, 120, 12), 8), "the pairs not met are no slow links");
    assertFalse(auto.probeScope(4).isFull());
    assertFalse(probeAsScoped(auto, TestbedLinks.of(2, 2, 120, 2.4), 16), "a 5x drop, seen once");
    assertTrue(auto.probeScope(4).isFull(), "the probe that may confirm it meets every pair");
    assertTrue(probeAsScoped(auto, TestbedLinks.of(2, 2, 120, 2.4), 24), "confirmed: re-plan");
    AutoPlanner.Plan next = auto.plan();
    assertNotSame(first, next);
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 4; j++) {
        assertTrue(i == j || next.measured().bandwidthMBps()[i][j] > 0, "the plan read pair " + i + "-" + j);
      }
    }
    assertFalse(auto.probeScope(4).isFull(), "a new plan: few rounds again");
  }

  @Test
  void aWatchedOutlierCostsOneProbeOfEveryPairAndThenFewRoundsAgain() {
    AutoSchedule auto = planned();
    assertFalse(probeAsScoped(auto, TestbedLinks.of(2, 2, 120, 2.4), 8));
    assertTrue(auto.probeScope(4).isFull());
    assertFalse(probeAsScoped(auto, TestbedLinks.of(2, 2, 120, 12), 16), "back within 2x");
    assertFalse(auto.probeScope(4).isFull());
  }

  @Test
  void aProbeOfFewRoundsNeverPlansEvenWhenTheRuleWouldReplan() {
    AutoSchedule auto = planned();
    AutoPlanner.Plan first = auto.plan();
    LinkMeasurements moved = TestbedLinks.of(2, 2, 120, 12);
    moved.hosts()[3] = "10.0.9.9";
    // Tasks run every round on other hosts; were one to run few, its zeros must not reach the planner.
    assertFalse(auto.update(results(TestbedLinks.partial(moved, new int[] {0, 2}), new int[4][4], 100, 2), 160,
        MODEL_BYTES, 10, 18, 8));
    assertSame(first, auto.plan());
    assertTrue(auto.probeScope(4).isFull(), "the next probe meets every pair");
    assertTrue(auto.update(results(moved), 160, MODEL_BYTES, 10, 26, 16), "and that one re-plans");
  }

  @Test
  void aPairALaterProbeDidNotMeetKeepsTheSizeItSettledOn() {
    AutoSchedule auto = new AutoSchedule(new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), 1, STEPS_PER_STAGE,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    int[][] floats = new int[4][4];
    for (int[] row : floats) {
      Arrays.fill(row, ProbeSizing.MAX_FLOATS);
    }
    auto.update(results(TestbedLinks.of(2, 2, 120, 12), floats), 160, MODEL_BYTES, 10, 10, 0);
    int[][] later = new int[4][4];
    later[0][3] = later[3][0] = later[1][2] = later[2][1] = ProbeSizing.START_FLOATS; // round 0 only
    auto.update(results(TestbedLinks.partial(TestbedLinks.of(2, 2, 120, 12), new int[] {0}), later, 100, 1), 160,
        MODEL_BYTES, 10, 20, 8);
    assertEquals(ProbeSizing.START_FLOATS, auto.probeStartFloats(4)[0][3]);
    assertEquals(ProbeSizing.MAX_FLOATS, auto.probeStartFloats(4)[0][2], "not met: as the probe before left it");
  }
}
