package io.dssync.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every schedule kind yields a valid partition of the ranks at every step. */
class GroupPartitionTest {

  static Stream<Arguments> specs() {
    List<Arguments> specs = new ArrayList<>();
    for (int n = 1; n <= 13; n++) {
      for (int g = 1; g <= n; g++) {
        specs.add(Arguments.of(ScheduleSpec.of(ScheduleKind.RANDOM, n, g, 1 + g % 3, 0, 17L * n + g)));
      }
      specs.add(Arguments.of(ScheduleSpec.of(ScheduleKind.FULL, n, 0, 1, 0, 0)));
      specs.add(Arguments.of(ScheduleSpec.of(ScheduleKind.LOCAL, n, 0, 1, 0, 0)));
      specs.add(Arguments.of(ScheduleSpec.of(ScheduleKind.RANDOM, n, Math.max(1, n / 2), 2, 4, 9)));
    }
    int[][] butterflies = {{1, 1}, {2, 2}, {4, 2}, {8, 2}, {16, 2}, {9, 3}, {27, 3}, {16, 4}, {5, 5}};
    for (int[] b : butterflies) {
      specs.add(Arguments.of(ScheduleSpec.of(ScheduleKind.BUTTERFLY, b[0], b[1], 1, 0, 0)));
      specs.add(Arguments.of(ScheduleSpec.of(ScheduleKind.BUTTERFLY, b[0], b[1], 1, 3, 0)));
    }
    specs.add(Arguments.of(ScheduleSpec.of(ScheduleKind.RANDOM, 100, 7, 3, 0, 5)));
    return specs.stream();
  }

  @ParameterizedTest
  @MethodSource("specs")
  void everyKindGivesSortedDisjointGroupsCoveringAllRanks(ScheduleSpec spec) {
    GroupSchedule schedule = Schedules.create(spec);
    int n = spec.workers();
    assertEquals(n, schedule.workers());
    for (long step = 0; step < 40; step++) {
      int[][] groups = schedule.groupsAt(step);
      boolean[] seen = new boolean[n];
      for (int k = 0; k < groups.length; k++) {
        int[] group = groups[k];
        assertTrue(group.length >= 1, "empty group at step " + step);
        for (int i = 0; i < group.length; i++) {
          int rank = group[i];
          assertTrue(rank >= 0 && rank < n, "rank out of range " + rank);
          assertTrue(!seen[rank], "rank " + rank + " in two groups at step " + step);
          seen[rank] = true;
          if (i > 0) {
            assertTrue(group[i - 1] < rank, "group not ascending " + Arrays.toString(group));
          }
          assertSame(group, schedule.groupOf(rank, step), "groupOf disagrees with groupsAt");
        }
        if (k > 0) {
          assertTrue(groups[k - 1][0] < group[0], "groups not ordered by smallest member");
        }
      }
      for (int rank = 0; rank < n; rank++) {
        assertTrue(seen[rank], "rank " + rank + " missing at step " + step + " in " + spec);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("specs")
  void randomGroupsFollowTheLeftoverRule(ScheduleSpec spec) {
    if (spec.kind() != ScheduleKind.RANDOM || spec.globalAveragePeriod() > 0) {
      return;
    }
    int n = spec.workers();
    int g = spec.groupSize();
    int count = n / g;
    int[][] groups = Schedules.create(spec).groupsAt(3);
    assertEquals(count, groups.length, "floor(N/g) groups");
    int[] sizes = Arrays.stream(groups).mapToInt(group -> group.length).sorted().toArray();
    int[] expected = new int[count];
    for (int k = 0; k < count; k++) {
      expected[k] = n / count + (k < n % count ? 1 : 0);
    }
    Arrays.sort(expected);
    assertArrayEquals(expected, sizes, "N=" + n + " g=" + g);
    assertTrue(sizes[0] >= g, "no group smaller than g");
  }

  @ParameterizedTest
  @MethodSource("specs")
  void groupOfAnOutOfRangeRankIsRejected(ScheduleSpec spec) {
    GroupSchedule schedule = Schedules.create(spec);
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> schedule.groupOf(spec.workers(), 0));
  }
}
