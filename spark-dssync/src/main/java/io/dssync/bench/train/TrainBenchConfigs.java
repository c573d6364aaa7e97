package io.dssync.bench.train;

import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.CrossRackPrecision;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.Errors;
import io.dssync.schedule.ScheduleKind;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainerConfigBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The synchronization configurations {@code dssync bench train} compares, all on the same engine:
 * {@code full} (g = N, the baseline), DS-Sync random and butterfly with g = 2 and 4, local SGD
 * (g = 1, global average every H steps), group averaging (random g = 2, global average every
 * H steps), topology g = 2 (pairs inside racks, a cross-rack step every --cross-rack-period steps,
 * or C steps for topology-gG-cC; racks from --racks, else one per executor host) and auto. Any of
 * them with the suffix {@code -direct} or {@code -ring} (full-direct, full-ring) averages its
 * groups of three or more with that {@code --all-reduce}, so the algorithms meet in one run; and
 * any of them with the suffix {@code -fp16} last (topology-g2-c2-fp16) runs with
 * {@code --cross-rack-precision fp16}. Named only (not in "all"): {@code diloco}, local SGD whose global averages
 * take DiLoCo's outer Nesterov step (outer rate 0.7, momentum 0.9), and {@code noloco}, random g = 2 whose group
 * averages take it per replica (DiLoCo's values).
 */
public final class TrainBenchConfigs {
  public static final String FULL = "full";
  static final List<String> ALL_NAMES = List.of(FULL, "random-g2", "random-g4", "butterfly-g2",
      "butterfly-g4", "local-sgd", "group-avg-g2", "topology-g2", "auto");
  /** topology-g&lt;G&gt; (C from --cross-rack-period) or topology-g&lt;G&gt;-c&lt;C&gt;, e.g. topology-g2-c2. */
  private static final java.util.regex.Pattern TOPOLOGY =
      java.util.regex.Pattern.compile("topology-g(\\d+)(?:-c(\\d+))?");
  /** The algorithms a configuration's name may end in (full-ring): "-direct" and "-ring". */
  private static final List<AllReduceAlgorithm> SUFFIXES = List.of(AllReduceAlgorithm.DIRECT, AllReduceAlgorithm.RING);
  /** DiLoCo's outer learning rate and Nesterov momentum (Douillard et al., 2023). */
  static final double DILOCO_OUTER_RATE = 0.7;
  static final double DILOCO_OUTER_MOMENTUM = 0.9;
  /** The suffix of a configuration that sends halves across racks (topology-g2-c2-fp16). */
  private static final String HALVES = "-" + CrossRackPrecision.FP16.label();

  private TrainBenchConfigs() {}

  /**
   * One configuration: its table name and the schedule settings it gives the trainer
   * ({@code crossRackPeriod} 0 = the run's --cross-rack-period; {@code allReduce} null = the run's
   * --all-reduce; {@code crossRack} null = the run's --cross-rack-precision).
   */
  public record Sync(String name, ScheduleKind schedule, int groupSize, int globalEvery, int crossRackPeriod,
      AllReduceAlgorithm allReduce, CrossRackPrecision crossRack, String outerAt) {
    Sync(String name, ScheduleKind schedule, int groupSize, int globalEvery) {
      this(name, schedule, groupSize, globalEvery, 0, null, null, null);
    }

    Sync(String name, ScheduleKind schedule, int groupSize, int globalEvery, int crossRackPeriod,
        AllReduceAlgorithm allReduce, CrossRackPrecision crossRack) {
      this(name, schedule, groupSize, globalEvery, crossRackPeriod, allReduce, crossRack, null);
    }

    /** DS-Sync proper (shuffled groups, no periodic global average): what the target is about. */
    boolean isDsSync() {
      return globalEvery == 0 && List.of(ScheduleKind.RANDOM, ScheduleKind.BUTTERFLY, ScheduleKind.TOPOLOGY,
          ScheduleKind.AUTO).contains(schedule);
    }

    public TrainerConfig config(TrainerConfigBuilder base) {
      if (crossRackPeriod > 0) {
        base.set(TrainerConfig.CROSS_RACK_PERIOD, crossRackPeriod);
      }
      if (allReduce != null) {
        base.set(TrainerConfig.ALL_REDUCE, allReduce.label());
      }
      if (crossRack != null) {
        base.set(TrainerConfig.CROSS_RACK_PRECISION, crossRack.label());
      }
      if (outerAt != null) {
        base.set(TrainerConfig.OUTER_LEARNING_RATE, DILOCO_OUTER_RATE).set(TrainerConfig.OUTER_MOMENTUM,
            DILOCO_OUTER_MOMENTUM).set(TrainerConfig.OUTER_AT, outerAt);
      }
      return base.set(TrainerConfig.SCHEDULE, schedule.cliName())
          .set(TrainerConfig.GROUP_SIZE, groupSize)
          .set(TrainerConfig.GLOBAL_AVERAGE_PERIOD, globalEvery)
          .build();
    }
  }

  /** The all-reduce a configuration's name ends in (full-ring: ring), or null for the run's --all-reduce. */
  public static AllReduceAlgorithm allReduceOf(String name) {
    return SUFFIXES.stream().filter(a -> name.endsWith("-" + a.label())).findFirst().orElse(null);
  }

  /** Whether the configuration called {@code name} sends halves across racks (its name ends in -fp16). */
  public static boolean sendsHalves(String name) {
    return name.endsWith(HALVES);
  }

  /** The configuration called {@code name} for {@code workers} workers and global period {@code h}. */
  public static Sync named(String name, int workers, int h) {
    if (sendsHalves(name)) {
      Sync plain = named(name.substring(0, name.length() - HALVES.length()), workers, h);
      return new Sync(name, plain.schedule(), plain.groupSize(), plain.globalEvery(), plain.crossRackPeriod(),
          plain.allReduce(), CrossRackPrecision.FP16);
    }
    AllReduceAlgorithm algorithm = allReduceOf(name);
    if (algorithm != null) {
      Sync plain = named(name.substring(0, name.length() - algorithm.label().length() - 1), workers, h);
      return new Sync(name, plain.schedule(), plain.groupSize(), plain.globalEvery(), plain.crossRackPeriod(),
          algorithm, null);
    }
    return switch (name) {
      case FULL -> new Sync(FULL, ScheduleKind.FULL, workers, 0);
      case "random-g2" -> new Sync(name, ScheduleKind.RANDOM, 2, 0);
      case "random-g4" -> new Sync(name, ScheduleKind.RANDOM, 4, 0);
      case "butterfly-g2" -> new Sync(name, ScheduleKind.BUTTERFLY, 2, 0);
      case "butterfly-g4" -> new Sync(name, ScheduleKind.BUTTERFLY, 4, 0);
      case "local-sgd" -> new Sync(name, ScheduleKind.LOCAL, 1, h);
      case "diloco" -> new Sync(name, ScheduleKind.LOCAL, 1, h, 0, null, null, "global");
      case "noloco" -> new Sync(name, ScheduleKind.RANDOM, 2, 0, 0, null, null, "groups");
      case "group-avg-g2" -> new Sync(name, ScheduleKind.RANDOM, 2, h);
      case "auto" -> new Sync(name, ScheduleKind.AUTO, 2, 0);
      default -> {
        java.util.regex.Matcher m = TOPOLOGY.matcher(name);
        if (!m.matches()) {
          throw Errors.unknownName(
              "configuration in --configs (or topology-g<G>[-c<C>]; any of them with -direct or -ring, then -fp16)",
              name, ALL_NAMES.toArray());
        }
        yield new Sync(name, ScheduleKind.TOPOLOGY, Integer.parseInt(m.group(1)), 0,
            m.group(2) == null ? 0 : Integer.parseInt(m.group(2)), null, null);
      }
    };
  }

  /**
   * The configurations listed in {@code csv} ("all" = every one), {@code full} always first because
   * every ratio is against it. With "all", configurations the worker count cannot form (g > N,
   * butterfly with N not a power of g) are left out and reported in {@code skipped}; named
   * explicitly, they are an error.
   */
  static List<Sync> choose(String csv, TrainerConfigBuilder probe, int workers, int h, List<String> skipped) {
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
