package io.dssync.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The auto schedule's pure parts: probe pairing, racks from bandwidth, uplinks, the choice. */
class AutoPlannerTest {
  private static final long MODEL_BYTES = 1_700_000;
  /** As the testbed runs train: stages of 8 steps. */
  private static final int STEPS_PER_STAGE = 8;

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8, 9})
  void probeRoundsMeetEveryPairExactlyOnce(int n) {
    Set<String> met = new HashSet<>();
    for (int round = 0; round < ProbeRounds.rounds(n); round++) {
      int resting = 0;
      for (int rank = 0; rank < n; rank++) {
        int p = ProbeRounds.partner(rank, round, n);
        if (p < 0) {
          resting++;
          continue;
        }
        assertTrue(p != rank && p < n, "rank " + rank + " paired with " + p);
        assertEquals(rank, ProbeRounds.partner(p, round, n), "pairing not symmetric in round " + round);
        if (rank < p) {
          assertTrue(met.add(rank + "-" + p), "pair " + rank + "-" + p + " met twice");
        }
      }
      assertEquals(n % 2, resting, "resting ranks in round " + round);
    }
    assertEquals(n * (n - 1) / 2, met.size());
  }

  @Test
  void racksAreTheClustersOfFastLinks() {
    assertEquals(RackLayout.parse("10.0.1.11,10.0.1.12;10.0.2.11,10.0.2.12"), TestbedLinks.of(2, 2, 120, 12).racks());
    assertEquals(RackLayout.parse("10.0.1.11,10.0.1.12;10.0.2.11,10.0.2.12;10.0.3.11,10.0.3.12"),
        TestbedLinks.of(3, 2, 120, 12).racks());
    assertEquals(0, TestbedLinks.of(2, 2, 120, 100).racks().rackOfRank(TestbedLinks.of(2, 2, 120, 100).hosts())[3],
        "links within 3x of each other: one rack");
  }

  /**
   * The host pairs a real probe read on the 3 x 2 testbed (2026-12-06 10:14): 126-145 MB/s inside
   * racks, 2.7-20.1 MB/s across them (12.5 MB/s uplinks).
   */
  @Test
  void racksSplitAtTheGapBetweenSlowAndFastLinksWhereOneSlowReadingMovedTheExtremesMiddle() {
    String[] hosts = {"10.217.1.11", "10.217.1.12", "10.217.2.11", "10.217.2.12", "10.217.3.11", "10.217.3.12"};
    String[] pairs = {"1.12-3.12 15.1", "2.11-3.12 5.3", "3.11-3.12 125.7", "1.11-3.12 11.0", "2.12-3.12 15.0",
        "1.12-2.11 5.5", "1.12-3.11 2.7", "1.11-1.12 136.8", "1.12-2.12 8.8", "2.11-3.11 10.5", "1.11-2.11 7.3",
        "2.11-2.12 145.2", "1.11-3.11 8.5", "2.12-3.11 20.1", "1.11-2.12 10.8"};
    double[][] bandwidth = new double[6][6];
    for (String pair : pairs) {
      String[] parts = pair.split("[- ]");
      int a = List.of(hosts).indexOf("10.217." + parts[0]);
      int b = List.of(hosts).indexOf("10.217." + parts[1]);
      bandwidth[a][b] = bandwidth[b][a] = Double.parseDouble(parts[2]);
    }
    LinkMeasurements links = new LinkMeasurements(hosts, new double[6][6], bandwidth);
    assertEquals(RackLayout.parse("10.217.1.11,10.217.1.12;10.217.2.11,10.217.2.12;10.217.3.11,10.217.3.12"),
        links.racks());
  }

  @Test
  void unevenLinksWithoutAGapAreOneRack() {
    // Four hosts read 50-200 MB/s, no neighbour 3x the one below: one rack. The extremes' middle
    // (100 MB/s) would have made racks of the two fastest pairs, 0-1 and 2-3.
    double[][] bandwidth = {{0, 200, 50, 70}, {200, 0, 60, 90}, {50, 60, 0, 150}, {70, 90, 150, 0}};
    LinkMeasurements links = new LinkMeasurements(new String[] {"a", "b", "c", "d"}, new double[4][4], bandwidth);
    assertEquals(RackLayout.parse("a,b,c,d"), links.racks());
  }

  @Test
  void uplinkCapacityAddsUpThePairsThatSharedIt() {
    LinkMeasurements links = TestbedLinks.of(2, 2, 120, 12);
    double[] uplinks = links.uplinkMBps(new int[] {0, 0, 1, 1});
    assertEquals(12, uplinks[0], 1e-9);
    assertEquals(12, uplinks[1], 1e-9);
  }

  @Test
  void aTenfoldSlowerUplinkIsTheLargestChangeAndOneNoisyPairIsNot() {
    LinkMeasurements planned = TestbedLinks.of(2, 2, 120, 12);
    RackLayout racks = planned.racks();
    LinkMeasurements.Change change = TestbedLinks.of(2, 2, 120, 1.2).largestChangeSince(planned, racks);
    assertNotNull(change);
    assertEquals(10, change.size(), 1e-6);
    assertEquals("rack0<->rack1", change.link());
    assertEquals(1, TestbedLinks.of(2, 2, 120, 12).largestChangeSince(planned, racks).size(), 1e-9);
    // One cross-rack host pair measured 4x faster (noise): the rack pair's median moves far less than 2x.
    LinkMeasurements noisy = TestbedLinks.of(2, 2, 120, 12);
    noisy.bandwidthMBps()[2][0] *= 4;
    noisy.bandwidthMBps()[0][2] *= 4;
    assertTrue(noisy.largestChangeSince(TestbedLinks.of(2, 2, 120, 12), racks).size() < 2,
        String.valueOf(noisy.largestChangeSince(TestbedLinks.of(2, 2, 120, 12), racks)));
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void onASlowUplinkAutoChoosesTopologyThatDriftsNoMoreThanRandom(int racks) {
    LinkMeasurements links = TestbedLinks.of(racks, 2, 120, 12);
    ScheduleSpec base = new ScheduleSpec(ScheduleKind.AUTO, racks * 2, 2, 1, 0, 42);
    AutoPlanner.Plan plan = plan(links, base, STEPS_PER_STAGE, RingRule.AUTO);
    assertEquals(ScheduleKind.TOPOLOGY, plan.spec().kind(), plan.describe());
    assertEquals(links.racks(), plan.racks());
    assertTrue(plan.chosen().drift() <= plan.driftBudget() * (1 + 1e-9), plan.describe());
    AutoPlanner.Candidate full = TestbedLinks.candidate(plan, ScheduleKind.FULL, racks * 2, 0);
    AutoPlanner.Candidate random = TestbedLinks.candidate(plan, ScheduleKind.RANDOM, 2, 0);
    assertTrue(plan.chosen().stepMs() < random.stepMs() && random.stepMs() < full.stepMs(), plan.describe());
    // The plan runs: every rank lands in a rack of the measured hosts.
    GroupSchedule schedule = plan.schedulePlan().forHosts(links.hosts());
    assertEquals(racks * 2, schedule.workers());
  }

  @Test
  void onAFlatFastNetworkAutoChoosesRandomPairs() {
    LinkMeasurements links = TestbedLinks.of(2, 2, 120, 240);
    AutoPlanner.Plan plan = plan(links, new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42), STEPS_PER_STAGE,
        RingRule.AUTO);
    assertEquals(ScheduleKind.RANDOM, plan.spec().kind(), plan.describe());
    assertEquals(2, plan.spec().groupSize());
  }

  @Test
  void predictedSyncFollowsTheUplink() {
    int[] racks = {0, 0, 1, 1};
    AutoPlanner.StepCost fast = stepCost(TestbedLinks.of(2, 2, 120, 12), racks, RingRule.AUTO);
    AutoPlanner.StepCost slow = stepCost(TestbedLinks.of(2, 2, 120, 1.2), racks, RingRule.AUTO);
    int[][] cross = {{0, 2}, {1, 3}};
    int[][] inRack = {{0, 1}, {2, 3}};
    // Each uplink carries 2 chunks of S/2 per phase: 2 x 1.7 MB / 12 MB/s = 142 ms per phase.
    assertEquals(2 * 1.7 / 12 * 1e3, fast.syncMs(cross, 1), 1.0);
    assertEquals(10, slow.syncMs(cross, 1) / fast.syncMs(cross, 1), 0.1);
    assertEquals(fast.syncMs(inRack, 1), slow.syncMs(inRack, 1), 1e-9, "in-rack pairs do not touch the uplink");
  }

  @Test
  void aTwoLevelStepCostsAnInRackAllReducePlusOneAcrossRacksOnItsShareOfTheState() {
    int[] racks = {0, 0, 1, 1};
    AutoPlanner.StepCost cost = stepCost(TestbedLinks.of(2, 2, 120, 12), racks, RingRule.AUTO);
    GroupSchedule topology = Schedules.topology(
        ScheduleSpec.of(ScheduleKind.TOPOLOGY, 4, 2, 1, 0, 1).withCrossRackPeriod(2), racks);
    int[][] inRack = {{0, 1}, {2, 3}};
    int[][] cross = {{0, 2}, {1, 3}};
    assertEquals(cost.syncMs(inRack, 1) + cost.syncMs(cross, 0.5), AutoPlanner.syncMs(topology, 1, cost::syncMs), 1e-9);
    // Half the state crosses each uplink: about half a one-level cross-rack step's time.
    assertEquals(0.5, cost.syncMs(cross, 0.5) / cost.syncMs(cross, 1), 0.05);
    assertEquals(cost.syncMs(topology.groupsAt(0), 1), AutoPlanner.syncMs(topology, 0, cost::syncMs), 1e-9);
  }

  @Test
  void aStagesLastStepCostsNoSyncSinceTheStageEndAverageStandsInForIt() {
    int[] racks = {0, 0, 1, 1};
    AutoPlanner.StepCost cost = stepCost(TestbedLinks.of(2, 2, 120, 12), racks, RingRule.AUTO);
    GroupSchedule full = Schedules.create(ScheduleSpec.of(ScheduleKind.FULL, 4, 4, 1, 0, 1));
    double everyStep = cost.syncMs(full.groupsAt(0), 1);
    assertEquals(everyStep * 7 / 8, AutoPlanner.meanSyncMs(full, cost::syncMs, 8), 1e-9);
    assertEquals(everyStep * 99 / 100, AutoPlanner.meanSyncMs(full, cost::syncMs, 100), 1e-9,
        "a stage longer than the window still skips one step in K");
    // Topology with C = 4 crosses after steps 3 and 7 of a stage of 8; the second is the stage's last.
    GroupSchedule topology = Schedules.topology(
        ScheduleSpec.of(ScheduleKind.TOPOLOGY, 4, 2, 1, 0, 1).withCrossRackPeriod(4), racks);
    double inRack = AutoPlanner.syncMs(topology, 0, cost::syncMs);
    double crossing = AutoPlanner.syncMs(topology, 3, cost::syncMs);
    assertTrue(crossing > 5 * inRack, crossing + " vs " + inRack);
    assertEquals((6 * inRack + crossing) / 8, AutoPlanner.meanSyncMs(topology, cost::syncMs, 8), 1e-9);
  }

  /** The throttled 3 x 2 testbed's shape: 120 MB/s hosts, 12 MB/s uplinks, 2 ms per message. */
  @Test
  void aFullGroupOfSixOverThreeRacksCostsTheRingFormulaUnderAutoLessThanTheDirectExchange() {
    LinkMeasurements links = TestbedLinks.of(3, 2, 120, 12);
    int[] racks = links.racks().rackOfRank(links.hosts());
    int[][] full = {{0, 1, 2, 3, 4, 5}};
    double chunkOnUplinkMs = 1.7 / 6 / 12 * 1e3; // a chunk of S/6 at the uplink's 12 MB/s: 23.6 ms
    // Ring in host order: 5 steps per phase, each as long as its slowest hop, a cross-rack one (2 ms + the chunk
    // at the uplink); each uplink carries the 5 chunks of its one crossing, 118 ms, less than those 5 hops.
    double ring = 2 * 5 * (2 + chunkOnUplinkMs);
    assertEquals(256.111, ring, 1e-3);
    assertEquals(ring, stepCost(links, racks, RingRule.AUTO).syncMs(full, 1), 1e-9);
    assertEquals(ring, stepCost(links, racks, RingRule.RING).syncMs(full, 1), 1e-9);
    // Direct: each rack's two members send a chunk to each of the 4 members outside it, 8 chunks per uplink.
    assertEquals(2 * 8 * chunkOnUplinkMs, stepCost(links, racks, RingRule.DIRECT).syncMs(full, 1), 1e-9);
  }

  @Test
  void theRingIsPricedInTheOrderGivenWhichInHostOrderCrossesEachUplinkOnce() {
    LinkMeasurements links = TestbedLinks.of(3, 2, 120, 12);
    int[] racks = links.racks().rackOfRank(links.hosts());
    int[][] full = {{0, 1, 2, 3, 4, 5}};
    // Every hop of the ring 0, 2, 4, 1, 3, 5 leaves its rack: 2 crossings x 5 chunks per uplink and phase.
    int[] everyHopCrosses = {0, 2, 4, 1, 3, 5};
    AutoPlanner.StepCost crossing = new AutoPlanner.StepCost(links, racks, MODEL_BYTES, RingRule.RING, false,
        everyHopCrosses);
    assertEquals(2 * 10 * 1.7 / 6 / 12 * 1e3, crossing.syncMs(full, 1), 1e-9);
    assertTrue(crossing.syncMs(full, 1) > stepCost(links, racks, RingRule.RING).syncMs(full, 1));
  }

  @Test
  void pairsCostTheSameUnderEveryRule() {
    LinkMeasurements links = TestbedLinks.of(3, 2, 120, 12);
    int[] racks = links.racks().rackOfRank(links.hosts());
    for (int[][] pairs : new int[][][] {{{0, 1}, {2, 3}, {4, 5}}, {{0, 2}, {1, 4}, {3, 5}}}) {
      double direct = stepCost(links, racks, RingRule.DIRECT).syncMs(pairs, 1);
      assertEquals(direct, stepCost(links, racks, RingRule.AUTO).syncMs(pairs, 1), 1e-9);
      assertEquals(direct, stepCost(links, racks, RingRule.RING).syncMs(pairs, 1), 1e-9);
    }
  }

  /** Three ranks, one link between ranks 0 and 1 ten times slower: the ring must take it, the direct exchange once. */
  @Test
  void aGroupOnOneHostIsPricedDirectUnderAutoAndOnThreeHostsAsTheRing() {
    double[][] latency = new double[3][3];
    double[][] bandwidth = {{0, 10, 100}, {10, 0, 100}, {100, 100, 0}};
    int[][] group = {{0, 1, 2}};
    double chunkMB = 1.7 / 3;
    double direct = 2 * (chunkMB / 10 + chunkMB / 100) * 1e3; // ranks 0 and 1 each send over the slow link once
    double ring = 2 * 2 * chunkMB / 10 * 1e3; // 0 -> 1 -> 2 -> 0: two steps per phase, each as long as 0 -> 1
    LinkMeasurements oneHost = new LinkMeasurements(new String[] {"h", "h", "h"}, latency, bandwidth);
    LinkMeasurements threeHosts = new LinkMeasurements(new String[] {"h1", "h2", "h3"}, latency, bandwidth);
    int[] oneRack = {0, 0, 0};
    assertEquals(direct, stepCost(oneHost, oneRack, RingRule.AUTO).syncMs(group, 1), 1e-9);
    assertEquals(ring, stepCost(oneHost, oneRack, RingRule.RING).syncMs(group, 1), 1e-9);
    assertEquals(ring, stepCost(threeHosts, oneRack, RingRule.AUTO).syncMs(group, 1), 1e-9);
    assertEquals(direct, stepCost(threeHosts, oneRack, RingRule.DIRECT).syncMs(group, 1), 1e-9);
  }

  /**
   * Four hosts cabled in a ring (each to its neighbours at 120 MB/s, across it 2.9x slower, still one rack):
   * random pairs beat the direct exchange of all four, which sends every chunk across too, while the ring
   * over all four, in host order round the cable, uses only the fast links and beats random pairs.
   */
  @Test
  void theRingCanMakeFullTheChoice() {
    int n = 4;
    double[][] latency = new double[n][n];
    double[][] bandwidth = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        latency[i][j] = i == j ? 0 : 0.1;
        bandwidth[i][j] = i == j ? 0 : (i - j + n) % n == 2 ? 120 / 2.9 : 120;
      }
    }
    LinkMeasurements cabledInARing = new LinkMeasurements(new String[] {"10.0.0.1", "10.0.0.2", "10.0.0.3",
        "10.0.0.4"}, latency, bandwidth);
    assertEquals(0, cabledInARing.racks().rackOfRank(cabledInARing.hosts())[3], "one rack: a flat network");
    ScheduleSpec base = new ScheduleSpec(ScheduleKind.AUTO, n, 2, 1, 0, 42);
    long bytes = 17_000_000;
    AutoPlanner.Plan direct = AutoPlanner.plan(cabledInARing, base, bytes, 160, STEPS_PER_STAGE, RingRule.DIRECT,
        TestbedLinks.inRankOrder(n));
    AutoPlanner.Plan auto = AutoPlanner.plan(cabledInARing, base, bytes, 160, STEPS_PER_STAGE, RingRule.AUTO,
        TestbedLinks.inRankOrder(n));
    assertEquals(ScheduleKind.RANDOM, direct.spec().kind(), direct.describe());
    assertEquals(ScheduleKind.FULL, auto.spec().kind(), auto.describe());
    assertTrue(auto.describe().contains("; priced for all-reduce auto (ring for a group of three or more on more than"
        + " one host, else direct);"), auto.describe());
    assertTrue(direct.describe().contains("priced for all-reduce direct"), direct.describe());
  }

  @Test
  void stagesOf8StepsGiveRandomPairsTheAverageOfAllRanksThatTopologyCrossingAfterStep7HadAlready() {
    LinkMeasurements links = TestbedLinks.of(3, 2, 120, 12);
    ScheduleSpec base = new ScheduleSpec(ScheduleKind.AUTO, 6, 2, 1, 0, 42);
    AutoPlanner.Plan shortStages = plan(links, base, 8, RingRule.AUTO);
    AutoPlanner.Plan longStages = plan(links, base, 1_000, RingRule.AUTO);
    String both = shortStages.describe() + " / " + longStages.describe();
    assertTrue(shortStages.driftBudget() < 0.9 * longStages.driftBudget(), both);
    // C = 4 crosses racks after steps 3 and 7 of each stage, the second in two levels over all ranks.
    assertEquals(TestbedLinks.candidate(longStages, ScheduleKind.TOPOLOGY, 2, 4).drift(),
        TestbedLinks.candidate(shortStages, ScheduleKind.TOPOLOGY, 2, 4).drift(), 1e-9, both);
    // So with long stages C = 4 drifts no more than random pairs, with stages of 8 only C = 2 does.
    assertEquals(4, longStages.chosen().crossRackPeriod(), both);
    assertEquals(2, shortStages.chosen().crossRackPeriod(), both);
  }

  /**
   * Under halves across racks a group spanning racks moves half the bytes and exchanges directly
   * (the ring's rule no longer applies to it); a group inside one rack is priced as in floats.
   */
  @Test
  void halvesAcrossRacksPriceASpanningGroupAsTheDirectExchangeOfHalfTheBytes() {
    LinkMeasurements links = TestbedLinks.of(2, 2, 120, 12);
    int[] racks = links.racks().rackOfRank(links.hosts());
    AutoPlanner.StepCost halves = new AutoPlanner.StepCost(links, racks, MODEL_BYTES, RingRule.AUTO, true,
        TestbedLinks.inRankOrder(links.workers()));
    int[][] all = {{0, 1, 2, 3}};
    // In floats the ring crosses each uplink once per phase (3 chunks); the direct exchange sends 4 chunks.
    assertTrue(stepCost(links, racks, RingRule.AUTO).syncMs(all, 1)
        < stepCost(links, racks, RingRule.DIRECT).syncMs(all, 1));
    assertEquals(stepCost(links, racks, RingRule.DIRECT).syncMs(all, 0.5), halves.syncMs(all, 1), 1e-9);
    int[][] inRackPairs = {{0, 1}, {2, 3}};
    assertEquals(stepCost(links, racks, RingRule.AUTO).syncMs(inRackPairs, 1), halves.syncMs(inRackPairs, 1), 1e-9);
  }

  /** The first plan under fp16 prices topology's level across racks in halves, and its log says so. */
  @Test
  void aPlanForHalvesAcrossRacksPricesTheCrossRackStepsCheaperAndSaysSo() {
    LinkMeasurements links = TestbedLinks.of(2, 2, 120, 12);
    ScheduleSpec base = new ScheduleSpec(ScheduleKind.AUTO, 4, 2, 1, 0, 42);
    AutoPlanner.Plan floats = plan(links, base, STEPS_PER_STAGE, RingRule.AUTO);
    AutoPlanner.Plan halves = AutoPlanner.plan(links, base, MODEL_BYTES, 160, STEPS_PER_STAGE, RingRule.AUTO, true,
        TestbedLinks.inRankOrder(links.workers()));
    String both = floats.describe() + " / " + halves.describe();
    AutoPlanner.Candidate crossingEveryStep = TestbedLinks.candidate(halves, ScheduleKind.TOPOLOGY, 2, 1);
    AutoPlanner.Candidate inFloats = TestbedLinks.candidate(floats, ScheduleKind.TOPOLOGY, 2, 1);
    // In-rack level alike, the level across racks on half the bytes: between half and all of the floats' sync.
    assertTrue(crossingEveryStep.syncMs() < inFloats.syncMs() && crossingEveryStep.syncMs() > inFloats.syncMs() / 2,
        both);
    assertEquals(TestbedLinks.candidate(floats, ScheduleKind.FULL, 4, 0).drift(),
        TestbedLinks.candidate(halves, ScheduleKind.FULL, 4, 0).drift(), 1e-12, "halves change costs, not mixing");
    assertTrue(halves.describe().contains(", groups across racks in halves by the direct exchange;"), both);
    assertTrue(!floats.describe().contains("halves"), both);
  }

  /** The plan of a 160 ms step over {@code links}, whose host order is rank order, priced for {@code rule}. */
  private static AutoPlanner.Plan plan(LinkMeasurements links, ScheduleSpec base, int stepsPerStage, RingRule rule) {
    return AutoPlanner.plan(links, base, MODEL_BYTES, 160, stepsPerStage, rule,
        TestbedLinks.inRankOrder(links.workers()));
  }

  /** The step cost over {@code links} (host order = rank order) in racks {@code racks}, priced for {@code rule}. */
  private static AutoPlanner.StepCost stepCost(LinkMeasurements links, int[] racks, RingRule rule) {
    return new AutoPlanner.StepCost(links, racks, MODEL_BYTES, rule, false, TestbedLinks.inRankOrder(links.workers()));
  }

}
