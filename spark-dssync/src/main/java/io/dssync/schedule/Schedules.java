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
        };
    return spec.globalAveragePeriod() > 0
        ? new WithGlobalAverage(base, spec.globalAveragePeriod())
        : base;
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
