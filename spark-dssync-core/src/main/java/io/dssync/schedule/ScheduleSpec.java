package io.dssync.schedule;

import io.dssync.errors.Errors;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything that determines a group schedule. Two equal specs give the same groups at every
 * step, on every worker and in every run.
 *
 * <p>The group size only matters for RANDOM, BUTTERFLY and TOPOLOGY (g inside a rack):
 * {@link ScheduleKind#FULL} always uses one group of all N workers and {@link ScheduleKind#LOCAL}
 * always uses groups of one, whatever {@code groupSize} says. {@link #of} writes those forced
 * values into the spec so that what is logged is what runs. The shuffle period only matters for
 * RANDOM and TOPOLOGY (its in-rack groups), the cross-rack period only for TOPOLOGY.
 *
 * @param kind which schedule
 * @param workers N, the number of workers (ranks 0..N-1)
 * @param groupSize g, the target group size (see {@link Partitions} for N not divisible by g)
 * @param shufflePeriod P, RANDOM draws a new partition every P steps
 * @param globalAveragePeriod H, 0 = never; otherwise all N workers average after every step t
 *     with (t + 1) % H == 0
 * @param seed seed of the RANDOM and TOPOLOGY partitions
 * @param crossRackPeriod C, TOPOLOGY groups across racks after every step t with (t + 1) % C == 0
 */
public record ScheduleSpec(
    ScheduleKind kind, int workers, int groupSize, int shufflePeriod, int globalAveragePeriod, long seed,
    int crossRackPeriod)
    implements Serializable {
  /** The default C of TOPOLOGY: one cross-rack step in four. */
  public static final int DEFAULT_CROSS_RACK_PERIOD = 4;

  /** A spec with the default cross-rack period (it only matters for TOPOLOGY). */
  public ScheduleSpec(
      ScheduleKind kind, int workers, int groupSize, int shufflePeriod, int globalAveragePeriod, long seed) {
    this(kind, workers, groupSize, shufflePeriod, globalAveragePeriod, seed, DEFAULT_CROSS_RACK_PERIOD);
  }

  /** A spec with the group size forced to N for FULL and to 1 for LOCAL; not yet validated. */
  public static ScheduleSpec of(
      ScheduleKind kind, int workers, int groupSize, int shufflePeriod, int globalAveragePeriod, long seed) {
    return new ScheduleSpec(kind, workers, kind.effectiveGroupSize(workers, groupSize), shufflePeriod,
        globalAveragePeriod, seed);
  }

  /** This spec with cross-rack period {@code c}. */
  public ScheduleSpec withCrossRackPeriod(int c) {
    return new ScheduleSpec(kind, workers, groupSize, shufflePeriod, globalAveragePeriod, seed, c);
  }

  /** This spec for {@code n} workers (elastic training): g is capped at N, and forced for FULL. */
  public ScheduleSpec withWorkers(int n) {
    int g = kind == ScheduleKind.FULL ? n : Math.min(groupSize, n);
    return new ScheduleSpec(kind, n, g, shufflePeriod, globalAveragePeriod, seed, crossRackPeriod);
  }

  /** Checks every setting; returns this spec, or throws a CONFIG error naming the bad value. */
  public ScheduleSpec validate() {
    if (kind == null) {
      throw Errors.invalidFlag(
          "schedule", null, "a schedule kind is required",
          "Choose one of " + String.join(", ", ScheduleKind.cliNames()) + ".");
    }
    if (workers < 1) {
      throw Errors.invalidFlag(
          "workers", workers, "the number of workers must be at least 1",
          "Set N to the number of barrier tasks to train with.");
    }
    if (groupSize < 1 || groupSize > workers) {
      throw Errors.invalidFlag(
          "groupSize", groupSize,
          "group size must be between 1 and the number of workers N=" + workers,
          "Choose 1 <= g <= " + workers + " (g = N is synchronous all-reduce, g = 1 is local SGD).");
    }
    if (shufflePeriod < 1) {
      throw Errors.invalidFlag(
          "shufflePeriod", shufflePeriod, "the shuffle period must be at least 1 step",
          "Use 1 to draw new random groups after every step.");
    }
    if (globalAveragePeriod < 0) {
      throw Errors.invalidFlag(
          "globalAveragePeriod", globalAveragePeriod,
          "the global average period must be 0 (off) or a positive number of steps",
          "Use 0 for no periodic global average, or H > 0 to average all workers every H steps.");
    }
    if (crossRackPeriod < 1) {
      throw Errors.invalidSetting(
          "cross-rack period", crossRackPeriod, "the cross-rack period must be at least 1 step",
          "Use C = 1 to cross racks after every step, or e.g. 4 for one cross-rack step in four.");
    }
    if (kind == ScheduleKind.BUTTERFLY && ButterflySchedule.digits(workers, groupSize) < 0) {
      throw Errors.invalidFlag(
          "workers", workers,
          "the butterfly schedule needs N to be a power of the group size g=" + groupSize,
          butterflyFix());
    }
    return this;
  }

  private String butterflyFix() {
    StringBuilder fix = new StringBuilder();
    if (groupSize >= 2) {
      fix.append("With g=").append(groupSize).append(" use N = g^m such as ")
          .append(joined(powersOf(groupSize))).append(". ");
    } else {
      fix.append("Butterfly needs g >= 2 when N > 1. ");
    }
    List<Long> sizes = groupSizesFitting(workers);
    if (!sizes.isEmpty()) {
      fix.append("With N=").append(workers).append(" use g = ").append(joined(sizes)).append(". ");
    }
    return fix.append("Or use the random schedule, which takes any N and g.").toString();
  }

  /** g^2, g^3, g^4 (those that fit in an int): the smallest N for which butterfly beats full. */
  private static List<Long> powersOf(int g) {
    List<Long> powers = new ArrayList<>();
    long p = (long) g * g;
    for (int m = 2; m <= 4 && p <= Integer.MAX_VALUE; m++, p *= g) {
      powers.add(p);
    }
    return powers;
  }

  /** Group sizes g >= 2 with g^m = n for some m >= 2 (g = n always works but is just FULL). */
  private static List<Long> groupSizesFitting(int n) {
    List<Long> sizes = new ArrayList<>();
    for (int g = 2; (long) g * g <= n; g++) {
      if (ButterflySchedule.digits(n, g) >= 2) {
        sizes.add((long) g);
      }
    }
    return sizes;
  }

  private static String joined(List<Long> values) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      s.append(i == 0 ? "" : ", ").append(values.get(i));
    }
    return s.toString();
  }
}
