package io.dssync.schedule;

import io.dssync.errors.Errors;
import java.util.Locale;

/** The group schedules of DESIGN.md section 6. */
public enum ScheduleKind {
  /** One group of all N workers: synchronous all-reduce (BSP), the baseline. */
  FULL,
  /** Groups of one: no averaging between global averages (local SGD when a global period is set). */
  LOCAL,
  /** A fresh seeded random partition into groups of g at every reshuffle. */
  RANDOM,
  /** Digit rotation: for N = g^m, every m consecutive steps give the exact global average. */
  BUTTERFLY,
  /**
   * Groups inside racks on most steps; every C-th step an average across racks (two-level when racks have one size).
   */
  TOPOLOGY,
  /**
   * Not a schedule of its own: the trainer measures the links between executors and runs the
   * FULL, RANDOM or TOPOLOGY schedule {@link AutoPlanner} predicts fastest, re-planning when links change.
   */
  AUTO;

  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Every kind's name as the CLI and settings spell it, in declaration order. */
  public static String[] cliNames() {
    String[] names = new String[values().length];
    for (int i = 0; i < names.length; i++) {
      names[i] = values()[i].cliName();
    }
    return names;
  }

  /** The group size this kind really uses: N for FULL, 1 for LOCAL, else the requested g. */
  public int effectiveGroupSize(int workers, int requestedGroupSize) {
    return switch (this) {
      case FULL -> workers;
      case LOCAL -> 1;
      default -> requestedGroupSize;
    };
  }

  public static ScheduleKind parse(String name) {
    for (ScheduleKind k : values()) {
      if (k.cliName().equals(name.trim().toLowerCase(Locale.ROOT))) {
        return k;
      }
    }
    throw Errors.unknownName("schedule", name, cliNames());
  }
}
