package io.dssync.schedule;

import io.dssync.errors.Errors;

/** Builds the {@link GroupSchedule} a {@link ScheduleSpec} describes. */
public final class Schedules {
  private Schedules() {}

  /**
   * Validates {@code spec} and returns its schedule, wrapped in {@link WithGlobalAverage} when
   * the spec asks for a global average every H > 0 steps.
   */
  public static GroupSchedule create(ScheduleSpec spec) {
    spec.validate();
    int n = spec.workers();
    GroupSchedule base =
        switch (spec.kind()) {
          case FULL -> FixedSchedule.full(n);
          case LOCAL -> FixedSchedule.local(n);
          case RANDOM -> new RandomSchedule(n, spec.groupSize(), spec.shufflePeriod(), spec.seed());
          case BUTTERFLY -> new ButterflySchedule(n, spec.groupSize());
          case TOPOLOGY -> throw Errors.invalidSetting("schedule", "topology",
              "the topology schedule needs the rack of every rank",
              "Build it with Schedules.plan(spec, racks) or Schedules.topology(spec, rackOfRank).");
          case AUTO -> throw Errors.invalidSetting("schedule", "auto",
              "auto is chosen by the trainer from measured links, not built from a spec",
              "Let DsSyncTrainer run it, or build the spec AutoPlanner.plan returns.");
        };
    return withGlobalAverage(base, spec);
  }

  /**
   * The plan a stage ships: the schedule itself, or for {@code topology} a recipe that takes the
   * racks from {@code racks} once the executor host of every rank is known.
   */
  public static SchedulePlan plan(ScheduleSpec spec, RackLayout racks) {
    spec.validate();
    return spec.kind() == ScheduleKind.TOPOLOGY ? new TopologyPlan(spec, racks) : create(spec);
  }

  /** The topology schedule of {@code spec} for ranks whose racks are {@code rackOfRank} (0..R-1). */
  public static GroupSchedule topology(ScheduleSpec spec, int[] rackOfRank) {
    spec.validate();
    if (rackOfRank.length != spec.workers()) {
      throw new IllegalArgumentException(rackOfRank.length + " racks given for " + spec.workers() + " ranks");
    }
    return withGlobalAverage(new TopologySchedule(rackOfRank, spec.groupSize(), spec.shufflePeriod(),
        spec.crossRackPeriod(), spec.seed()), spec);
  }

  /** Racks of equal size over consecutive ranks, as the cost model lays them out. */
  public static int[] consecutiveRacks(int workers, int racks) {
    int[] out = new int[workers];
    for (int rank = 0; rank < workers; rank++) {
      out[rank] = (int) ((long) rank * racks / workers);
    }
    return out;
  }

  private static GroupSchedule withGlobalAverage(GroupSchedule base, ScheduleSpec spec) {
    return spec.globalAveragePeriod() > 0 ? new WithGlobalAverage(base, spec.globalAveragePeriod()) : base;
  }

  /** Steps count from 0; a negative step is a caller bug that would silently wrap the arithmetic. */
  static long checkStep(long step) {
    if (step < 0) {
      throw Errors.invalidSetting(
          "step", step, "steps count from 0", "Pass the global step number (0, 1, 2, ...).");
    }
    return step;
  }
}
