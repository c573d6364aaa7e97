package io.dssync.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The topology schedule: in-rack groups on most steps, groups spanning every rack every C-th step. */
class TopologyScheduleTest {
  private static final int STEPS = 48;

  /** Rack of each rank, g, C: equal racks, unequal racks, interleaved ranks, one rack, racks of one. */
  static Stream<Arguments> layouts() {
    return Stream.of(
        Arguments.of(new int[] {0, 0, 1, 1}, 2, 4),
        Arguments.of(new int[] {0, 1, 0, 1}, 2, 2),
        Arguments.of(new int[] {0, 0, 1, 1, 2, 2}, 2, 3),
        Arguments.of(new int[] {0, 0, 0, 0, 1, 1, 1}, 2, 4),
        Arguments.of(new int[] {2, 0, 1, 2, 0, 1, 2, 0, 1, 0, 0, 0}, 3, 5),
        Arguments.of(new int[] {0, 0, 0, 0, 0}, 2, 2),
        Arguments.of(new int[] {0, 1, 2, 3}, 2, 2),
        Arguments.of(new int[] {0, 0, 0, 1}, 4, 1),
        Arguments.of(Schedules.consecutiveRacks(64, 4), 4, 4));
  }

  private static GroupSchedule topology(int[] racks, int g, int c, long seed) {
    return Schedules.topology(spec(racks.length, g, c, seed), racks);
  }

  private static ScheduleSpec spec(int n, int g, int c, long seed) {
    return ScheduleSpec.of(ScheduleKind.TOPOLOGY, n, g, 1, 0, seed).withCrossRackPeriod(c);
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void groupsAreSortedDisjointAndCoverEveryRank(int[] racks, int g, int c) {
    GroupSchedule schedule = topology(racks, g, c, 7);
    int n = racks.length;
    for (long step = 0; step < STEPS; step++) {
      int[][] groups = schedule.groupsAt(step);
      boolean[] seen = new boolean[n];
      for (int k = 0; k < groups.length; k++) {
        for (int i = 0; i < groups[k].length; i++) {
          int rank = groups[k][i];
          assertFalse(seen[rank], "rank " + rank + " twice at step " + step);
          seen[rank] = true;
          assertTrue(i == 0 || groups[k][i - 1] < rank, "group not ascending");
          assertSame(groups[k], schedule.groupOf(rank, step));
        }
        assertTrue(k == 0 || groups[k - 1][0] < groups[k][0], "groups not ordered");
      }
      for (int rank = 0; rank < n; rank++) {
        assertTrue(seen[rank], "rank " + rank + " missing at step " + step);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void inRackStepsNeverCrossRacksAndCrossStepsMixEveryRack(int[] racks, int g, int c) {
    GroupSchedule schedule = topology(racks, g, c, 11);
    int rackCount = Arrays.stream(racks).max().orElseThrow() + 1;
    for (long step = 0; step < STEPS; step++) {
      boolean cross = rackCount > 1 && (step + 1) % c == 0;
      for (int[] group : schedule.groupsAt(step)) {
        Set<Integer> inGroup = new HashSet<>();
        for (int rank : group) {
          inGroup.add(racks[rank]);
        }
        if (cross) {
          assertEquals(rackCount, inGroup.size(), "cross-rack group " + Arrays.toString(group) + " at step " + step
              + " misses a rack");
        } else {
          assertEquals(1, inGroup.size(), "in-rack group " + Arrays.toString(group) + " spans racks at step " + step);
          long rackSize = Arrays.stream(racks).filter(r -> r == racks[group[0]]).count();
          assertTrue(group.length >= Math.min(g, rackSize), "group smaller than g=" + g + ": "
              + Arrays.toString(group));
        }
      }
    }
  }

  @Test
  void equalRacksAverageEveryRankInTwoLevelsOnCrossSteps() {
    GroupSchedule schedule = topology(new int[] {0, 1, 0, 1, 2, 2}, 2, 2, 3);
    assertArrayEquals(new int[][] {{0, 1, 2, 3, 4, 5}}, schedule.groupsAt(1));
    assertArrayEquals(new int[][] {{0, 2}, {1, 3}, {4, 5}}, schedule.twoLevelRacksAt(1));
    for (int[] group : schedule.groupsAt(0)) {
      assertEquals(2, group.length, Arrays.toString(group));
    }
    assertNull(schedule.twoLevelRacksAt(0), "in-rack steps average in one level");
    assertArrayEquals(new int[][] {{0, 2}, {1, 3}, {4, 5}}, schedule.racksForGlobalAverage(), "stage-end average");
    // A global average added on top runs over the same racks, as do the topology's own cross steps.
    GroupSchedule withGlobal = Schedules.topology(new ScheduleSpec(ScheduleKind.TOPOLOGY, 6, 2, 1, 3, 3, 2),
        new int[] {0, 1, 0, 1, 2, 2});
    assertArrayEquals(new int[][] {{0, 1, 2, 3, 4, 5}}, withGlobal.groupsAt(2));
    assertArrayEquals(new int[][] {{0, 2}, {1, 3}, {4, 5}}, withGlobal.twoLevelRacksAt(2));
    assertArrayEquals(new int[][] {{0, 2}, {1, 3}, {4, 5}}, withGlobal.twoLevelRacksAt(1));
    assertNull(withGlobal.twoLevelRacksAt(0));
    assertNull(Schedules.create(ScheduleSpec.of(ScheduleKind.FULL, 4, 4, 1, 0, 0)).racksForGlobalAverage(),
        "full stays one plain all-reduce");
  }

  @Test
  void racksOfOtherSizesOrOfOneRankKeepOneMemberPerRackOnCrossSteps() {
    GroupSchedule uneven = topology(new int[] {0, 0, 0, 1, 1}, 2, 2, 3);
    for (int[] group : uneven.groupsAt(1)) {
      assertTrue(group.length >= 2 && group.length <= 3, Arrays.toString(group));
    }
    assertNull(uneven.twoLevelRacksAt(1));
    assertNull(uneven.racksForGlobalAverage());
    GroupSchedule single = topology(new int[] {0, 1, 2}, 1, 2, 3);
    assertArrayEquals(new int[][] {{0, 1, 2}}, single.groupsAt(1));
    assertNull(single.twoLevelRacksAt(1), "one rank per rack: the one level is already across racks");
  }

  @Test
  void theSameSettingsGiveTheSameGroupsAndOtherSeedsOtherGroups() {
    int[] racks = Schedules.consecutiveRacks(16, 2);
    GroupSchedule a = topology(racks, 2, 3, 5);
    GroupSchedule b = topology(racks, 2, 3, 5);
    GroupSchedule other = topology(racks, 2, 3, 6);
    boolean differs = false;
    for (long step = 0; step < STEPS; step++) {
      assertArrayEquals(a.groupsAt(step), b.groupsAt(step), "step " + step);
      differs |= !Arrays.deepEquals(a.groupsAt(step), other.groupsAt(step));
    }
    assertTrue(differs, "another seed should give other groups");
    // Query order does not matter: a fresh schedule asked backwards agrees.
    GroupSchedule c = topology(racks, 2, 3, 5);
    for (long step = STEPS - 1; step >= 0; step--) {
      assertArrayEquals(a.groupsAt(step), c.groupsAt(step), "step " + step);
    }
  }

  @Test
  void averagingReachesConsensusAcrossRacksOnlyThroughCrossSteps() {
    int[] racks = Schedules.consecutiveRacks(16, 4);
    double withCross = spreadAfter(topology(racks, 2, 4, 1), 16, 200);
    assertTrue(withCross < 1e-9, "spread " + withCross + " after 200 steps with a cross-rack step every 4");
    // Without cross-rack steps (C larger than the horizon) racks keep their own means.
    double without = spreadAfter(topology(racks, 2, 1000, 1), 16, 200);
    assertTrue(without > 1e-2, "spread " + without + " should stay: racks never talk");
  }

  /** Sum of squared distances to the mean after averaging {@code steps} times in the schedule's groups. */
  private static double spreadAfter(GroupSchedule schedule, int n, int steps) {
    SplittableRandom random = new SplittableRandom(9);
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = random.nextGaussian();
    }
    double mean = Arrays.stream(x).average().orElseThrow();
    for (int t = 0; t < steps; t++) {
      for (int[] group : schedule.groupsAt(t)) {
        double m = 0;
        for (int r : group) {
          m += x[r];
        }
        for (int r : group) {
          x[r] = m / group.length;
        }
      }
    }
    double d = 0;
    for (double v : x) {
      d += (v - mean) * (v - mean);
    }
    return d;
  }

  @Test
  void theGlobalAveragePeriodStillApplies() {
    ScheduleSpec spec = new ScheduleSpec(ScheduleKind.TOPOLOGY, 4, 2, 1, 3, 0, 4);
    GroupSchedule schedule = Schedules.topology(spec, new int[] {0, 0, 1, 1});
    assertArrayEquals(new int[][] {{0, 1, 2, 3}}, schedule.groupsAt(2));
  }

  @Test
  void aPlanPlacesRanksOnRacksByTheirHosts() {
    ScheduleSpec spec = spec(4, 2, 4, 0);
    RackLayout layout = RackLayout.parse("10.0.1.11,10.0.1.12; 10.0.2.11,10.0.2.12");
    SchedulePlan plan = Schedules.plan(spec, layout);
    String[] hosts = {"10.0.2.11", "10.0.1.11", "10.0.2.12", "10.0.1.12"};
    GroupSchedule schedule = plan.forHosts(hosts);
    assertArrayEquals(new int[][] {{0, 2}, {1, 3}}, schedule.groupsAt(0), "in-rack pairs follow the hosts");
    assertArrayEquals(new int[][] {{0, 1, 2, 3}}, schedule.groupsAt(3));
    assertArrayEquals(new int[][] {{0, 2}, {1, 3}}, schedule.twoLevelRacksAt(3), "the ranks of each rack's hosts");
    int[] byHost = RackLayout.byHost().rackOfRank(new String[] {"b", "a", "b", "c"});
    assertArrayEquals(new int[] {0, 1, 0, 2}, byHost);
    // Other schedule kinds are their own plan.
    GroupSchedule random = Schedules.create(ScheduleSpec.of(ScheduleKind.RANDOM, 4, 2, 1, 0, 0));
    assertSame(random, random.forHosts(hosts));
  }

  @Test
  void badRackListsAndUnknownHostsAreClearErrors() {
    DsSyncException twice = assertThrows(DsSyncException.class, () -> RackLayout.parse("a,b;b,c"));
    assertTrue(twice.getMessage().contains("host b is listed twice"), twice.getMessage());
    DsSyncException empty = assertThrows(DsSyncException.class, () -> RackLayout.parse("a,;c"));
    assertTrue(empty.getMessage().contains("empty"), empty.getMessage());
    DsSyncException unknown = assertThrows(DsSyncException.class,
        () -> RackLayout.parse("a,b;c,d").rackOfRank(new String[] {"a", "x"}));
    assertTrue(unknown.getMessage().contains("rank 1 runs on executor host x, which is in none of the racks"),
        unknown.getMessage());
    DsSyncException unlisted = assertThrows(DsSyncException.class,
        () -> RackLayout.parse("a,b;c,d").requireListed(List.of("a", "x", "d", "y")));
    assertTrue(unlisted.getMessage().contains("executor hosts x, y are in none of the racks. Add x, y to one of"),
        unlisted.getMessage());
    DsSyncException one = assertThrows(DsSyncException.class,
        () -> RackLayout.parse("a,b;c,d").requireListed(List.of("x")));
    assertTrue(one.getMessage().contains("executor host x is in none of the racks"), one.getMessage());
    RackLayout.parse("a,b;c,d").requireListed(List.of("a", "d"));
    RackLayout.byHost().requireListed(List.of("x"));
    DsSyncException period = assertThrows(DsSyncException.class, () -> spec(4, 2, 0, 0).validate());
    assertTrue(period.getMessage().contains("cross-rack period = 0"), period.getMessage());
    DsSyncException noRacks = assertThrows(DsSyncException.class, () -> Schedules.create(spec(4, 2, 4, 0)));
    assertTrue(noRacks.getMessage().contains("needs the rack of every rank"), noRacks.getMessage());
  }
}
