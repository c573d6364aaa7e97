package io.dssync.bench.train;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.Errors;
import io.dssync.schedule.ScheduleKind;
import io.dssync.train.TrainerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The synchronization configurations {@code dssync bench train} compares, all on the same engine:
 * {@code full} (g = N, the baseline), DS-Sync random and butterfly with g = 2 and 4, local SGD
 * (g = 1, global average every H steps), group averaging (random g = 2, global average every
 * H steps) and topology g = 2 (pairs inside racks, a cross-rack step every --cross-rack-period steps;
 * racks from --racks, else one per executor host).
 */
public final class TrainBenchConfigs {
  public static final String FULL = "full";
  static final List<String> ALL_NAMES = List.of(FULL, "random-g2", "random-g4", "butterfly-g2",
      "butterfly-g4", "local-sgd", "group-avg-g2", "topology-g2");

  private TrainBenchConfigs() {}

  /** One configuration: its table name and the schedule settings it gives the trainer. */
  public record Sync(String name, ScheduleKind schedule, int groupSize, int globalEvery) {
    /** DS-Sync proper (shuffled groups, no periodic global average): what the target is about. */
    boolean isDsSync() {
      return globalEvery == 0 && (schedule == ScheduleKind.RANDOM || schedule == ScheduleKind.BUTTERFLY
          || schedule == ScheduleKind.TOPOLOGY);
    }

    public TrainerConfig config(TrainerConfig.Builder base) {
      return base.set(TrainerConfig.SCHEDULE, schedule.cliName())
          .set(TrainerConfig.GROUP_SIZE, groupSize)
          .set(TrainerConfig.GLOBAL_AVERAGE_PERIOD, globalEvery)
          .build();
    }
  }

  /** The configuration called {@code name} for {@code workers} workers and global period {@code h}. */
  public static Sync named(String name, int workers, int h) {
    return switch (name) {
      case FULL -> new Sync(FULL, ScheduleKind.FULL, workers, 0);
      case "random-g2" -> new Sync(name, ScheduleKind.RANDOM, 2, 0);
      case "random-g4" -> new Sync(name, ScheduleKind.RANDOM, 4, 0);
      case "butterfly-g2" -> new Sync(name, ScheduleKind.BUTTERFLY, 2, 0);
      case "butterfly-g4" -> new Sync(name, ScheduleKind.BUTTERFLY, 4, 0);
      case "local-sgd" -> new Sync(name, ScheduleKind.LOCAL, 1, h);
      case "group-avg-g2" -> new Sync(name, ScheduleKind.RANDOM, 2, h);
      case "topology-g2" -> new Sync(name, ScheduleKind.TOPOLOGY, 2, 0);
      default -> throw Errors.unknownName("configuration in --configs", name, ALL_NAMES.toArray());
    };
  }

  /**
   * The configurations listed in {@code csv} ("all" = every one), {@code full} always first because
   * every ratio is against it. With "all", configurations the worker count cannot form (g > N,
   * butterfly with N not a power of g) are left out and reported in {@code skipped}; named
   * explicitly, they are an error.
   */
  static List<Sync> choose(String csv, TrainerConfig.Builder probe, int workers, int h, List<String> skipped) {
    boolean all = csv.trim().equalsIgnoreCase("all");
    List<String> names = new ArrayList<>(all ? ALL_NAMES : List.of(csv.toLowerCase(Locale.ROOT).split(",")));
    names.replaceAll(String::trim);
    names.remove(FULL);
    names.add(0, FULL);
    List<Sync> out = new ArrayList<>();
    for (String name : names.stream().distinct().toList()) {
      Sync sync = named(name, workers, h);
      try {
        sync.config(probe);
        out.add(sync);
      } catch (DsSyncException e) {
        if (!all) {
          throw Errors.invalidSetting("--configs", csv, name + " cannot run with " + workers + " workers: "
              + e.getMessage(), "Leave " + name + " out or change --workers.");
        }
        skipped.add(name + " (" + e.getMessage() + ")");
      }
    }
    return out;
  }
}
