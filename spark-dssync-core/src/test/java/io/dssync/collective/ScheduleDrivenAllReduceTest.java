package io.dssync.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dssync.schedule.GroupSchedule;
import io.dssync.schedule.ScheduleKind;
import io.dssync.schedule.ScheduleSpec;
import io.dssync.schedule.Schedules;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Groups from a schedule drive the all-reduce for many steps: each rank asks the schedule for its
 * own group, nothing deadlocks, and the result equals a sequential replay of the same groups.
 */
class ScheduleDrivenAllReduceTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @ParameterizedTest(name = "{0} N={1} g={2} P={3} H={4}")
  @CsvSource({"random, 7, 3, 2, 0", "random, 8, 2, 1, 4", "butterfly, 9, 3, 1, 0", "full, 5, 5, 1, 0"})
  void scheduleGroupsDriveTheAllReduceWithoutDeadlock(String kind, int n, int g, int p, int h) {
    GroupSchedule schedule = Schedules.create(ScheduleSpec.of(ScheduleKind.parse(kind), n, g, p, h, 2024L));
    int steps = 12;
    int size = 50;
    float[][] vectors = GroupAllReduceTest.randomVectors(n, size, 77);
    float[][] expected = replay(schedule, vectors, steps);
    List<InMemoryTransport> transports = InMemoryTransport.create(n);
    Members.runAll(n, rank -> {
      GroupAllReduce allReduce = new GroupAllReduce(transports.get(rank), TIMEOUT);
      for (long step = 0; step < steps; step++) {
        // A local step would change the vector here; a rank-dependent nudge stands in for it.
        vectors[rank][(int) (step % size)] += rank;
        allReduce.average(schedule.groupOf(rank, step), vectors[rank], step, 0);
      }
    });
    for (int rank = 0; rank < n; rank++) {
      assertArrayEquals(expected[rank], vectors[rank], "rank " + rank);
    }
    assertEquals(0, transports.get(0).pendingChunks());
  }

  private static float[][] replay(GroupSchedule schedule, float[][] start, int steps) {
    float[][] v = new float[start.length][];
    for (int rank = 0; rank < start.length; rank++) {
      v[rank] = start[rank].clone();
    }
    for (long step = 0; step < steps; step++) {
      for (int rank = 0; rank < v.length; rank++) {
        v[rank][(int) (step % v[rank].length)] += rank;
      }
      float[][] next = new float[v.length][];
      for (int[] group : schedule.groupsAt(step)) {
        float[] mean = GroupAllReduceTest.rankOrderMean(v, group);
        for (int rank : group) {
          next[rank] = mean.clone();
        }
      }
      v = next;
    }
    return v;
  }
}
