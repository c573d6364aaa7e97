package io.dssync.schedule;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Averaging in butterfly groups for m consecutive steps gives the exact global average. */
class ButterflyConsensusTest {

  @ParameterizedTest(name = "N={0} g={1} m={2} from step {3}")
  @CsvSource({"8, 2, 3, 0", "8, 2, 3, 4", "9, 3, 2, 0", "9, 3, 2, 1", "16, 4, 2, 5", "27, 3, 3, 2"})
  void mConsecutiveStepsReachTheExactMean(int n, int g, int m, int firstStep) {
    GroupSchedule butterfly = Schedules.create(ScheduleSpec.of(ScheduleKind.BUTTERFLY, n, g, 1, 0, 0));
    double[] values = randomValues(n, firstStep);
    double mean = mean(values);
    for (int t = firstStep; t < firstStep + m; t++) {
      averageInGroups(values, butterfly.groupsAt(t));
    }
    assertTrue(maxDistance(values, mean) < 1e-12, "distance " + maxDistance(values, mean));
  }

  @ParameterizedTest(name = "N={0} g={1} m={2}")
  @CsvSource({"8, 2, 3", "9, 3, 2", "27, 3, 3"})
  void fewerThanMStepsDoNotReachTheMean(int n, int g, int m) {
    GroupSchedule butterfly = Schedules.create(ScheduleSpec.of(ScheduleKind.BUTTERFLY, n, g, 1, 0, 0));
    double[] values = randomValues(n, 3);
    double mean = mean(values);
    for (int t = 0; t < m - 1; t++) {
      averageInGroups(values, butterfly.groupsAt(t));
    }
    assertTrue(maxDistance(values, mean) > 1e-3, "distance " + maxDistance(values, mean));
  }

  @ParameterizedTest(name = "N={0} g={1} m={2}")
  @CsvSource({"8, 2, 3", "9, 3, 2"})
  void aFixedPartitionNeverReachesTheMean(int n, int g, int m) {
    GroupSchedule butterfly = Schedules.create(ScheduleSpec.of(ScheduleKind.BUTTERFLY, n, g, 1, 0, 0));
    double[] values = randomValues(n, 4);
    double mean = mean(values);
    int[][] fixed = butterfly.groupsAt(0);
    for (int t = 0; t < 10 * m; t++) {
      averageInGroups(values, fixed);
    }
    assertTrue(maxDistance(values, mean) > 1e-3, "distance " + maxDistance(values, mean));
  }

  private static double[] randomValues(int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextDouble(-10, 10);
    }
    return values;
  }

  private static void averageInGroups(double[] values, int[][] groups) {
    for (int[] group : groups) {
      double sum = 0;
      for (int rank : group) {
        sum += values[rank];
      }
      for (int rank : group) {
        values[rank] = sum / group.length;
      }
    }
  }

  private static double mean(double[] values) {
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum / values.length;
  }

  private static double maxDistance(double[] values, double mean) {
    double max = 0;
    for (double v : values) {
      max = Math.max(max, Math.abs(v - mean));
    }
    return max;
  }
}
