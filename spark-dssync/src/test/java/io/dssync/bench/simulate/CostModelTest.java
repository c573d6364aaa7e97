package io.dssync.bench.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.schedule.RingRule;
import io.dssync.schedule.ScheduleKind;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CostModelTest {
  private static final long MB64 = 64L << 20;

  @Test
  void flatGroupAllReduceIsTwoGMinusOneMessagesOfSOverG() {
    CostModel m = CostModel.flat(0, 0.5, 100); // 0.5 ms per message, 100 MB/s
    // g = 4, 8 MB: 2*3 messages, each 0.5 ms + 2 MB / 100 MB/s = 20 ms -> 6 * 20.5
    assertEquals(6 * 20.5, m.groupAllReduceMs(4, 8_000_000), 1e-9);
    assertEquals(0, m.groupAllReduceMs(1, 8_000_000));
    // The partition-based sync time of one group of 4 equals the closed form on a flat network.
    assertEquals(m.groupAllReduceMs(4, 8_000_000), m.syncMs(new int[][] {{0, 1, 2, 3}}, 4, 8_000_000), 1e-9);
    // Parallel groups do not add up: two groups of two cost what one group of two costs.
    assertEquals(m.groupAllReduceMs(2, 8_000_000), m.syncMs(new int[][] {{0, 1}, {2, 3}}, 4, 8_000_000), 1e-9);
  }

  @Test
  void crossRackTrafficSharesTheUplink() {
    // Two racks of two; uplink 10 MB/s, links 100 MB/s, no latency.
    CostModel m = new CostModel(0, 0, 100, 2, 0, 10);
    // Groups {0,1} and {2,3} stay inside their racks: as on a flat network.
    assertEquals(CostModel.flat(0, 0, 100).syncMs(new int[][] {{0, 1}, {2, 3}}, 4, 2_000_000),
        m.syncMs(new int[][] {{0, 1}, {2, 3}}, 4, 2_000_000), 1e-9);
    // Groups {0,2} and {1,3} cross: each rack sends 2 chunks of 1 MB per phase over 10 MB/s = 200 ms.
    assertEquals(2 * 200, m.syncMs(new int[][] {{0, 2}, {1, 3}}, 4, 2_000_000), 1e-9);
  }

  @Test
  void onAFlatNetworkTheRingCostsTheClosedFormAsTheDirectExchangeDoes() {
    CostModel direct = CostModel.flat(0, 0.5, 100).withAllReduce(RingRule.DIRECT);
    CostModel ring = CostModel.flat(0, 0.5, 100).withAllReduce(RingRule.RING);
    for (int g = 3; g <= 6; g++) {
      int[][] group = {java.util.stream.IntStream.range(0, g).toArray()};
      assertEquals(ring.groupAllReduceMs(g, 8_000_000), ring.syncMs(group, g, 8_000_000), 1e-9);
      assertEquals(ring.groupAllReduceMs(g, 8_000_000), direct.syncMs(group, g, 8_000_000), 1e-9);
    }
  }

  @Test
  void aRingAcrossTwoRacksPutsItsChunksOnEachUplinkThroughOneCrossing() {
    // Two racks of two; uplink 10 MB/s, links 100 MB/s, no latency; one group of 4 averaging 4 MB: chunks of 1 MB.
    CostModel auto = new CostModel(0, 0, 100, 2, 0, 10);
    int[][] full = {{0, 1, 2, 3}};
    // Ring 0 -> 1 -> 2 -> 3 -> 0: 1 -> 2 and 3 -> 0 cross, each carries 3 chunks per phase: 300 ms per uplink.
    assertEquals(2 * 300, auto.syncMs(full, 4, 4_000_000), 1e-9);
    assertEquals(2 * 300, auto.withAllReduce(RingRule.RING).syncMs(full, 4, 4_000_000), 1e-9);
    // Direct: each rack's 2 members send a chunk to each of the other rack's 2: 4 MB per uplink and phase.
    assertEquals(2 * 400, auto.withAllReduce(RingRule.DIRECT).syncMs(full, 4, 4_000_000), 1e-9);
    // Pairs swap directly under every rule.
    int[][] pairs = {{0, 2}, {1, 3}};
    assertEquals(auto.withAllReduce(RingRule.DIRECT).syncMs(pairs, 4, 4_000_000), auto.syncMs(pairs, 4, 4_000_000),
        1e-9);
  }

  @Test
  void aRingStepLastsAsLongAsItsSlowestHop() {
    // Three racks of two, a fast uplink; 5 ms between racks, 0.1 ms inside; 6 MB over six: 1 MB chunks, 10 ms each.
    CostModel ring = new CostModel(0, 0.1, 100, 3, 5, 1e6).withAllReduce(RingRule.RING);
    assertEquals(2 * 5 * (5 + 10), ring.syncMs(new int[][] {{0, 1, 2, 3, 4, 5}}, 6, 6_000_000), 1e-9);
  }

  @Test
  void aShapedUplinkCarriesItsQueueAtTheRateAndTheRestAtTheOverflowShare() {
    // 10 MB/s uplink; 1 MB of a phase at that rate, the rest at half of it.
    CostModel m = new CostModel(0, 0, 100, 2, 0, 10, 1, 0.5);
    assertEquals(50, m.uplinkMs(0.5), 1e-9);
    assertEquals((1 + 2 / 0.5) / 10 * 1e3, m.uplinkMs(3), 1e-9);
    // Groups {0,2} and {1,3} cross: each rack sends 2 chunks of 1.5 MB per phase.
    assertEquals(2 * m.uplinkMs(3), m.syncMs(new int[][] {{0, 2}, {1, 3}}, 4, 3_000_000), 1e-9);
    assertEquals(2 * 300, new CostModel(0, 0, 100, 2, 0, 10).syncMs(new int[][] {{0, 2}, {1, 3}}, 4, 3_000_000), 1e-9);
  }

  /**
   * Cells made by a shaped uplink, as on the testbed: no plain link fits both ends of the sizes within
   * 20%, the calibrated queue fits every cell. Cells of a plain uplink keep a plain link.
   */
  @Test
  void calibrationFindsAShapedUplinksQueueAndKeepsAPlainLinkPlain() {
    CostModel shaped = new CostModel(0, 0.1, 120, 2, 0.2, 11, 1.5, 0.6);
    CostModel plain = new CostModel(0, 0.1, 120, 2, 0.2, 11);
    for (CostModel truth : List.of(shaped, plain)) {
      List<RackCalibration.Cell> cells = new ArrayList<>();
      for (long bytes : new long[] {64L << 10, 1L << 20, 2L << 20, 4L << 20, 16L << 20}) {
        for (int g : new int[] {2, 4}) {
          RackCalibration.Cell shape = new RackCalibration.Cell(4, g, bytes, 1, truth.allReduce());
          cells.add(new RackCalibration.Cell(4, g, bytes, truth.syncMs(shape.groups(), 4, bytes), truth.allReduce()));
        }
      }
      RackCalibration.Links links = RackCalibration.calibrate(cells, 2);
      for (RackCalibration.Cell c : cells) {
        double rel = links.predictMs(c, 2) / c.timeMs() - 1;
        assertTrue(Math.abs(rel) < 0.03, truth + ": " + c + " predicted " + links.predictMs(c, 2));
      }
      assertEquals(truth == plain, Double.isInfinite(links.uplinkQueueMB()), truth + " -> " + links);
    }
  }

  /** Cells are priced for the all-reduce that measured them: direct times read as a ring's misjudge the uplink. */
  @Test
  void calibrationPricesEachCellForTheAllReduceItWasMeasuredWith() {
    for (RingRule measuredWith : List.of(RingRule.DIRECT, RingRule.RING)) {
      CostModel truth = new CostModel(0, 0.1, 120, 2, 0.2, 11).withAllReduce(measuredWith);
      assertEquals(11, RackCalibration.calibrate(cells(truth, measuredWith), 2).uplinkMBps(), 11 * 0.03,
          measuredWith.label());
    }
    CostModel direct = new CostModel(0, 0.1, 120, 2, 0.2, 11).withAllReduce(RingRule.DIRECT);
    double misread = RackCalibration.calibrate(cells(direct, RingRule.RING), 2).uplinkMBps();
    assertTrue(Math.abs(misread / 11 - 1) > 0.1, "direct cells priced as a ring: uplink " + misread);
  }

  /** The all-reduce table of {@code truth} on 2 racks of 2 (g = 2 in rack, g = 4 across), marked {@code as}. */
  private static List<RackCalibration.Cell> cells(CostModel truth, RingRule as) {
    List<RackCalibration.Cell> cells = new ArrayList<>();
    for (long bytes : new long[] {64L << 10, 1L << 20, 4L << 20, 16L << 20}) {
      for (int g : new int[] {2, 4}) {
        int[][] groups = new RackCalibration.Cell(4, g, bytes, 1, as).groups();
        cells.add(new RackCalibration.Cell(4, g, bytes, truth.syncMs(groups, 4, bytes), as));
      }
    }
    return cells;
  }

  @Test
  void localScheduleCostsNothingAndGlobalEveryHCostsFullOverH() {
    CostModel m = CostModel.flat(10, 0.1, 1000);
    long bytes = 4_000_000;
    assertEquals(0, StepTimePrediction.meanSyncMs(m, new SimulatedSchedule(ScheduleKind.LOCAL, 1, 0), 8, bytes, 1, 0));
    double full = m.groupAllReduceMs(8, bytes);
    assertEquals(full, StepTimePrediction.meanSyncMs(m, new SimulatedSchedule(ScheduleKind.FULL, 0, 0), 8, bytes, 1, 0),
        1e-9);
    assertEquals(full / 4,
        StepTimePrediction.meanSyncMs(m, new SimulatedSchedule(ScheduleKind.LOCAL, 1, 4), 8, bytes, 1, 0), 1e-9);
    // Random g = 2 on 8 workers: every step four parallel pairs.
    assertEquals(m.groupAllReduceMs(2, bytes),
        StepTimePrediction.meanSyncMs(m, new SimulatedSchedule(ScheduleKind.RANDOM, 2, 0), 8, bytes, 1, 0), 1e-9);
  }

  /** As in the worker loop: the stage's last step does not average; the stage-end average stands in for it. */
  @Test
  void theLastStepOfEveryStageCostsNoSync() {
    CostModel m = CostModel.flat(10, 0.1, 1000);
    long bytes = 4_000_000;
    double full = m.groupAllReduceMs(8, bytes);
    assertEquals(full * 7 / 8,
        StepTimePrediction.meanSyncMs(m, new SimulatedSchedule(ScheduleKind.FULL, 0, 0), 8, bytes, 1, 8), 1e-9);
    // Local SGD with H = 4 in stages of 4: every global average falls on a stage's last step.
    assertEquals(0, StepTimePrediction.meanSyncMs(m, new SimulatedSchedule(ScheduleKind.LOCAL, 1, 4), 8, bytes, 1, 4));
    // H = 5 in stages of 8: over 40 steps the global steps are 4, 9, ..., 39, and 39 ends a stage.
    assertEquals(full * 7 / 40,
        StepTimePrediction.meanSyncMs(m, new SimulatedSchedule(ScheduleKind.LOCAL, 1, 5), 8, bytes, 1, 8), 1e-9);
  }

  /** A measured run is predicted over its own steps: the random pairs it met, not a window's sample of them. */
  @Test
  void aRunsRandomPairsArePredictedOverTheStepsItRan() {
    CostModel m = new CostModel(0, 0.1, 120, 2, 0.1, 12);
    long bytes = 1_700_000;
    SimulatedSchedule pairs = new SimulatedSchedule(ScheduleKind.RANDOM, 2, 0);
    double crossing = m.syncMs(new int[][] {{0, 2}, {1, 3}}, 4, bytes);
    double inRack = m.syncMs(new int[][] {{0, 1}, {2, 3}}, 4, bytes);
    io.dssync.schedule.GroupSchedule groups = pairs.create(4, 42);
    int steps = 62;
    double expected = 0;
    for (int t = 0; t < steps; t++) {
      if ((t + 1) % 8 != 0 && t != steps - 1) { // the run's last stage, of 6 steps, ends at its step 61
        expected += groups.groupsAt(t)[0][1] >= 2 ? crossing : inRack; // rack of the first rank's partner
      }
    }
    expected /= steps;
    assertEquals(expected, StepTimePrediction.meanSyncMs(m, pairs, 4, bytes, 42, 8, steps), 1e-9);
    assertTrue(Math.abs(expected - StepTimePrediction.meanSyncMs(m, pairs, 4, bytes, 42, 8)) > 0.01 * expected,
        "a 48-step window meets other pairs than the run's 62 steps");
  }

  @Test
  void fitRecoversTheParametersOfSyntheticPoints() {
    CostModel truth = CostModel.flat(0, 0.8, 350);
    SplittableRandom noise = new SplittableRandom(7);
    List<CostModelFit.Point> points = new ArrayList<>();
    for (int g : new int[] {2, 3, 4}) {
      for (long bytes = 4096; bytes <= MB64; bytes *= 4) {
        double t = truth.groupAllReduceMs(g, bytes) * (1 + 0.01 * (noise.nextDouble() - 0.5));
        points.add(new CostModelFit.Point(g, bytes, t));
      }
    }
    CostModelFit.Fit fit = CostModelFit.fit(points);
    assertEquals(0.8, fit.latencyMs(), 0.02);
    assertEquals(350, fit.bandwidthMBps(), 5);
    assertEquals(points.size(), fit.points());
  }

  @Test
  void fitWithOneSizeFallsBackToBandwidthOnlyAndTooFewPointsFail() {
    List<CostModelFit.Point> one = List.of(new CostModelFit.Point(2, 1_000_000, 10),
        new CostModelFit.Point(2, 1_000_000, 10));
    CostModelFit.Fit fit = CostModelFit.fit(one);
    assertEquals(0, fit.latencyMs());
    assertEquals(100, fit.bandwidthMBps(), 1e-6); // 2(g-1)/g * 1 MB in 10 ms = 100 MB/s
    assertThrows(DsSyncException.class, () -> CostModelFit.fit(List.of(new CostModelFit.Point(2, 4096, 1))));
    assertThrows(DsSyncException.class, () -> new CostModel(0, -1, 100, 1, 0, 100));
  }

  @Test
  void butterflyOnlyWhereNIsAPowerOfG() {
    SimulatedSchedule b4 = new SimulatedSchedule(ScheduleKind.BUTTERFLY, 4, 0);
    assertTrue(b4.fits(4) && b4.fits(16) && b4.fits(1024));
    assertTrue(!b4.fits(8) && !b4.fits(32));
    assertEquals("random-g4-H8", new SimulatedSchedule(ScheduleKind.RANDOM, 4, 8).label());
    assertEquals(16, new SimulatedSchedule(ScheduleKind.LOCAL, 1, 8).period(10));
  }
}
