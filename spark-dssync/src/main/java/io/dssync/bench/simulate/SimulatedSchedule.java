package io.dssync.bench.simulate;

import io.dssync.schedule.GroupSchedule;
import io.dssync.schedule.ScheduleKind;
import io.dssync.schedule.ScheduleSpec;
import io.dssync.schedule.Schedules;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One schedule the simulator compares, built from the real {@code io.dssync.schedule} classes so
 * the simulated groups are exactly the ones training would use.
 *
 * @param kind schedule kind
 * @param groupSize g (forced to N for full and 1 for local, as ScheduleSpec.of does)
 * @param globalEvery H, 0 = never
 * @param racks topology only: racks of consecutive ranks, as the cost model lays them out
 * @param crossRackPeriod topology only: C, a cross-rack step after every C-th step
 */
record SimulatedSchedule(ScheduleKind kind, int groupSize, int globalEvery, int racks, int crossRackPeriod) {
  SimulatedSchedule(ScheduleKind kind, int groupSize, int globalEvery) {
    this(kind, groupSize, globalEvery, 1, ScheduleSpec.DEFAULT_CROSS_RACK_PERIOD);
  }

  /** The topology schedule with g in a rack and a cross-rack step every C steps over {@code racks} racks. */
  static SimulatedSchedule topology(int g, int racks, int crossRackPeriod) {
    return new SimulatedSchedule(ScheduleKind.TOPOLOGY, g, 0, racks, crossRackPeriod);
  }

  /** The five schedules of the issue for group size g and global period H. */
  static List<SimulatedSchedule> standard(int g, int h) {
    return List.of(new SimulatedSchedule(ScheduleKind.FULL, 0, 0),
        new SimulatedSchedule(ScheduleKind.RANDOM, g, 0),
        new SimulatedSchedule(ScheduleKind.BUTTERFLY, g, 0),
        new SimulatedSchedule(ScheduleKind.LOCAL, 1, h),
        new SimulatedSchedule(ScheduleKind.RANDOM, g, h));
  }

  String label() {
    String base = switch (kind) {
      case FULL -> "full";
      case LOCAL -> "local";
      case TOPOLOGY -> "topology-g" + groupSize + "-C" + crossRackPeriod;
      default -> kind.cliName() + "-g" + groupSize;
    };
    return globalEvery > 0 ? base + "-H" + globalEvery : base;
  }

  /** Whether the schedule exists for N workers (butterfly needs N = g^m, groups need g <= N). */
  boolean fits(int workers) {
    return switch (kind) {
      case FULL, LOCAL -> true;
      case RANDOM -> groupSize <= workers;
      case TOPOLOGY -> groupSize <= workers && racks <= workers;
      case AUTO -> false; // chosen at run time from measured links: nothing fixed to simulate
      case BUTTERFLY -> isPowerOf(workers, groupSize);
    };
  }

  /** N = g^m for some m >= 1. */
  static boolean isPowerOf(int n, int g) {
    if (g < 2) {
      return false;
    }
    long p = g;
    while (p < n) {
      p *= g;
    }
    return p == n;
  }

  GroupSchedule create(int workers, long seed) {
    ScheduleSpec spec = ScheduleSpec.of(kind, workers, groupSize, 1, globalEvery, seed)
        .withCrossRackPeriod(crossRackPeriod);
    return kind == ScheduleKind.TOPOLOGY
        ? Schedules.topology(spec, Schedules.consecutiveRacks(workers, racks))
        : Schedules.create(spec);
  }

  /** Steps that cover the schedule's pattern: a multiple of H, at least {@code atLeast}. */
  int period(int atLeast) {
    return globalEvery > 0 ? globalEvery * Math.max(1, (atLeast + globalEvery - 1) / globalEvery) : atLeast;
  }

  @Override
  public String toString() {
    return label();
  }

  static List<String> labels(List<SimulatedSchedule> schedules) {
    List<String> out = new ArrayList<>();
    schedules.forEach(s -> out.add(s.label().toLowerCase(Locale.ROOT)));
    return out;
  }
}
