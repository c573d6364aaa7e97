package io.dssync.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.schedule.ReplanRule.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The auto schedule's re-plan rule on sequences of probes of a 2 x 2 testbed planned at 120 MB/s
 * inside racks and a 12 MB/s uplink: only the same link beyond 2x the same way twice in a row re-plans.
 */
class ReplanRuleTest {
  private static final LinkMeasurements PLANNED = uplink(12);

  private static LinkMeasurements uplink(double mbps) {
    return TestbedLinks.of(2, 2, 120, mbps);
  }

  private static List<Outcome> outcomes(LinkMeasurements... probes) {
    ReplanRule rule = new ReplanRule(PLANNED, PLANNED.racks());
    List<Outcome> out = new ArrayList<>();
    for (LinkMeasurements p : probes) {
      out.add(rule.observe(p).outcome());
    }
    return out;
  }

  @Test
  void oneOutlierProbeDoesNotReplan() {
    assertEquals(List.of(Outcome.WATCH, Outcome.KEEP, Outcome.KEEP), outcomes(uplink(2.4), uplink(12), uplink(11)));
    // Two outliers with a good probe between them are still single outliers.
    assertEquals(List.of(Outcome.WATCH, Outcome.KEEP, Outcome.WATCH), outcomes(uplink(2.4), uplink(12), uplink(2.4)));
  }

  @Test
  void aPersistentFivefoldDropReplansAtTheSecondProbeAndSaysWhy() {
    ReplanRule rule = new ReplanRule(PLANNED, PLANNED.racks());
    assertEquals(Outcome.KEEP, rule.observe(uplink(12)).outcome());
    ReplanRule.Verdict first = rule.observe(uplink(2.4));
    assertEquals(Outcome.WATCH, first.outcome());
    assertTrue(!first.replan());
    ReplanRule.Verdict second = rule.observe(uplink(2.6));
    assertEquals(Outcome.REPLAN, second.outcome());
    assertTrue(second.replan());
    // Two cross-rack pairs of a probe round share the uplink: each measured half of it.
    assertEquals("rack0<->rack1", second.change().link());
    assertEquals(6, second.change().beforeMBps(), 1e-9);
    assertEquals(1.3, second.change().nowMBps(), 1e-9);
    assertEquals(1.2, second.before().nowMBps(), 1e-9);
    assertEquals("rack0<->rack1 6.0 -> 1.3 MB/s (x0.217), and 1.2 MB/s in the probe before (beyond 2x twice)",
        second.toString());
  }

  @Test
  void aWobbleWithinTwofoldNeverReplans() {
    assertEquals(List.of(Outcome.KEEP, Outcome.KEEP, Outcome.KEEP, Outcome.KEEP),
        outcomes(uplink(8), uplink(18), uplink(8), uplink(18)));
  }

  @Test
  void aRiseThenADropAreTwoOutliersNotAChange() {
    assertEquals(List.of(Outcome.WATCH, Outcome.WATCH), outcomes(uplink(30), uplink(5)));
  }

  @Test
  void aPersistentRiseReplansToo() {
    assertEquals(List.of(Outcome.WATCH, Outcome.REPLAN), outcomes(uplink(40), uplink(36)));
  }

  @Test
  void twoDifferentLinksBeyondTwofoldInTurnDoNotConfirmEachOther() {
    LinkMeasurements slowRack0 = TestbedLinks.of(2, 2, 120, 12);
    slowRack0.bandwidthMBps()[0][1] = slowRack0.bandwidthMBps()[1][0] = 30; // rack0's own link, 4x slower
    assertEquals(List.of(Outcome.WATCH, Outcome.WATCH), outcomes(slowRack0, uplink(2.4)));
    assertEquals(List.of(Outcome.WATCH, Outcome.REPLAN), outcomes(slowRack0, slowRack0));
  }

  /** A later probe of {@code links}: only the rounds that measure each of the plan's rack links. */
  private static LinkMeasurements fewRounds(LinkMeasurements links) {
    int[] rounds = ProbeScope.of(PLANNED.racks(), PLANNED.hosts()).rounds(links.hosts());
    assertEquals(2, rounds.length, "2 of 3 rounds");
    return TestbedLinks.partial(links, rounds);
  }

  @Test
  void aPairAProbeOfFewRoundsDidNotMeetIsNoSlowLink() {
    LinkMeasurements probe = fewRounds(uplink(12));
    assertEquals(0, probe.bandwidthMBps()[0][2], "ranks 0 and 2 (across racks) did not meet");
    ReplanRule.Verdict verdict = new ReplanRule(PLANNED, PLANNED.racks()).observe(probe);
    assertEquals(Outcome.KEEP, verdict.outcome(), verdict.toString());
    assertEquals(1, verdict.change().size(), 1e-9);
    assertEquals(3, probe.changesSince(PLANNED, PLANNED.racks()).size(), "every rack link still read");
  }

  @Test
  void aFivefoldDropOnAMeasuredCrossRackPairReplansAfterTwoProbesOfFewRounds() {
    assertEquals(List.of(Outcome.WATCH, Outcome.REPLAN), outcomes(fewRounds(uplink(2.4)), fewRounds(uplink(2.6))));
    // As AutoSchedule runs it: the probe after a watched link meets every pair.
    assertEquals(List.of(Outcome.KEEP, Outcome.WATCH, Outcome.REPLAN),
        outcomes(fewRounds(uplink(12)), fewRounds(uplink(2.4)), uplink(2.6)));
  }

  @Test
  void aProbeOfFewRoundsComparesEachLinkOverThePairsItMet() {
    // The plan read two of the four cross-rack pairs at 2 MB/s and two at 12 (median 7); the
    // later probe meets only the two slow ones, still at 2: no change, not 3.5x slower.
    LinkMeasurements planned = uplink(12);
    int[][] slow = {{0, 3}, {1, 2}};
    int[][] fast = {{0, 2}, {1, 3}};
    for (int[][] pairs : new int[][][] {slow, fast}) {
      for (int[] p : pairs) {
        planned.bandwidthMBps()[p[0]][p[1]] = planned.bandwidthMBps()[p[1]][p[0]] = pairs == slow ? 2 : 12;
      }
    }
    LinkMeasurements probe = TestbedLinks.partial(planned, new int[] {0, 2});
    assertEquals(0, probe.bandwidthMBps()[0][2]);
    assertEquals(2, probe.bandwidthMBps()[0][3]);
    ReplanRule.Verdict verdict = new ReplanRule(planned, planned.racks()).observe(probe);
    assertEquals(Outcome.KEEP, verdict.outcome(), verdict.toString());
  }

  @Test
  void ranksPlacedOnTheSameHostsInAnotherOrderReadAsTheSameLinks() {
    // Three racks whose own links differ (120, 60, 30 MB/s), so swapping two racks' names would
    // read as a 4x change inside both.
    LinkMeasurements planned = TestbedLinks.of(3, 2, 120, 12);
    for (int r = 0; r < 6; r++) {
      for (int p = 0; p < 6; p++) {
        if (r != p && r / 2 == p / 2) {
          planned.bandwidthMBps()[r][p] = 120 >> (r / 2);
        }
      }
    }
    // The next stage puts rack 2's hosts on ranks 0 and 1, and rack 0's on ranks 4 and 5.
    LinkMeasurements moved = TestbedLinks.permuted(planned, new int[] {4, 5, 2, 3, 0, 1});
    ReplanRule rule = new ReplanRule(planned, planned.racks());
    ReplanRule.Verdict verdict = rule.observe(moved);
    assertEquals(Outcome.KEEP, verdict.outcome(), verdict.toString());
    assertEquals(1, verdict.change().size(), 1e-9);
  }

  @Test
  void executorsOnOtherHostsReplanAtOnce() {
    LinkMeasurements moved = TestbedLinks.of(2, 2, 120, 12);
    moved.hosts()[3] = "10.0.9.9";
    assertEquals(List.of(Outcome.HOSTS_CHANGED), outcomes(moved));
    assertTrue(new ReplanRule(PLANNED, PLANNED.racks()).observe(moved).replan());
  }
}
