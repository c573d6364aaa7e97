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
  /** Groups inside racks on most steps; every C-th step cross-rack groups with a member of each rack. */
  TOPOLOGY,
  /**
   * Not a schedule of its own: the trainer measures the links between executors and runs the
   * FULL, RANDOM or TOPOLOGY schedule {@link AutoPlanner} predicts fastest, re-planning when links change.
   */
  AUTO;

  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ScheduleKind parse(String name) {
    for (ScheduleKind k : values()) {
      if (k.cliName().equals(name.trim().toLowerCase(Locale.ROOT))) {
        return k;
      }
    }
    String[] known = new String[values().length];
    for (int i = 0; i < known.length; i++) {
      known[i] = values()[i].cliName();
    }
    throw Errors.unknownName("schedule", name, known);
  }
}
