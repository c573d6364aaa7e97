package io.dssync.bench.train;

import io.dssync.launch.CommandFlags;
import io.dssync.data.DatasetSplits;
import io.dssync.data.FashionMnist;
import io.dssync.errors.Errors;
import io.dssync.train.Setting;
import io.dssync.launch.SparkSessions;
import io.dssync.train.TrainerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * The command line of the training benchmarks ({@code train}, {@code peer}): the benchmark's own
 * flags, read through {@link CommandFlags}, plus any trainer setting ({@code --learning-rate},
 * {@code --batch-size}, {@code --model}, ...) passed on to every configuration's
 * {@link TrainerConfig}. Settings the benchmark varies itself are refused, so a run can never
 * silently compare something other than what its table says.
 */
public final class TrainBenchArgs {
  /** Flags both training benchmarks understand, with their help text. */
  public static final Map<String, String> COMMON = orderedMap(
      "--master", "Spark master (default: spark-submit's master, else local[<workers x threads>])",
      "--network", "Label of the network in the tables, e.g. unthrottled or throttled (default unthrottled)",
      "--out", "Results root; this mode writes <out>/<mode>/ (default bench-results)",
      "--train-limit", "Use only the first N Fashion-MNIST training examples (0 = all 60000; default 0)",
      "--test-limit", "Evaluate on only the first N test examples (0 = all 10000; default 0)",
      "--target-accuracy", "Test accuracy whose first crossing is timed, in (0, 1)");

  private final CommandFlags flags;
  private final Map<Setting<?>, String> trainerSettings;

  private TrainBenchArgs(CommandFlags flags, Map<Setting<?>, String> trainerSettings) {
    this.flags = flags;
    this.trainerSettings = trainerSettings;
  }

  /**
   * Splits {@code args} into the benchmark's flags ({@code benchFlags}) and trainer settings;
   * trainer settings in {@code refused} are an error naming why.
   */
  public static TrainBenchArgs parse(String[] args, Set<String> benchFlags, Map<Setting<?>, String> refused) {
    List<String> bench = new ArrayList<>();
    Map<Setting<?>, String> trainer = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (i + 1 >= args.length) {
        throw Errors.invalidSetting(flag, "(nothing)", "a flag needs a value", "Write " + flag + " VALUE.");
      }
      String value = args[++i];
      if (benchFlags.contains(flag)) {
        bench.add(flag);
        bench.add(value);
        continue;
      }
      Setting<?> setting = findSetting(flag, benchFlags);
      if (refused.containsKey(setting)) {
        throw Errors.invalidSetting(flag, value, "the benchmark sets it itself: " + refused.get(setting),
            "Leave " + flag + " out.");
      }
      setting.parse(value); // fails now, naming the flag, rather than in the middle of the run
      trainer.put(setting, value);
    }
    return new TrainBenchArgs(CommandFlags.parse(bench.toArray(new String[0]), benchFlags), trainer);
  }

  private static Setting<?> findSetting(String flag, Set<String> benchFlags) {
    for (Setting<?> s : TrainerConfig.ALL) {
      if (s.flag().equals(flag)) {
        return s;
      }
    }
    Object[] known = Stream.concat(benchFlags.stream(), TrainerConfig.ALL.stream().map(Setting::flag)).toArray();
    throw Errors.unknownName("flag", flag, known);
  }

  public CommandFlags flags() {
    return flags;
  }

  /** A config builder with {@code defaults}, then the user's trainer settings on top. */
  public TrainerConfig.Builder trainer(Map<Setting<?>, String> defaults) {
    TrainerConfig.Builder b = TrainerConfig.builder();
    defaults.forEach((s, v) -> b.set(s.name(), v));
    trainerSettings.forEach((s, v) -> b.set(s.name(), v));
    return b;
  }

  /** The trainer settings the user passed, as "flag value" text for the summary. */
  String trainerSettingsText() {
    StringBuilder sb = new StringBuilder();
    trainerSettings.forEach((s, v) -> sb.append(sb.length() == 0 ? "" : " ").append(s.flag()).append(' ').append(v));
    return sb.length() == 0 ? "(defaults)" : sb.toString();
  }

  String master(TrainerConfig config) {
    return flags.string("--master", SparkSessions.submittedMaster()
        .orElse("local[" + config.workers() * config.get(TrainerConfig.THREADS_PER_WORKER) + "]"));
  }

  public String network() {
    String label = flags.string("--network", "unthrottled");
    if (!label.matches("[A-Za-z0-9_.-]+")) {
      throw Errors.invalidSetting("--network", label, "must be a short label of letters, digits, '.', '_' or '-'",
          "Pass e.g. --network throttled.");
    }
    return label;
  }

  public Path out() {
    return flags.path("--out", "bench-results");
  }

  public double targetAccuracy(double fallback) {
    double t = flags.number("--target-accuracy", fallback, 0);
    if (t >= 1) {
      throw Errors.invalidSetting("--target-accuracy", t, "must be below 1", "Pass e.g. --target-accuracy 0.85.");
    }
    return t;
  }

  /** Loads the data, starts the session {@code config} needs, runs {@code body}, always stops the session. */
  public int runOnSession(TrainerConfig config, BiConsumer<SparkSession, DatasetSplits> body) {
    return onSession(config, (spark, data) -> {
      body.accept(spark, data);
      return 0;
    });
  }

  /** Like {@link #runOnSession}, returning what {@code body} returns (after the session stopped). */
  <T> T onSession(TrainerConfig config, BiFunction<SparkSession, DatasetSplits, T> body) {
    DatasetSplits data = fashionMnist();
    SparkSession spark = SparkSessions.forMaster(master(config), config);
    try {
      return body.apply(spark, data);
    } finally {
      spark.stop();
    }
  }

  /** A {@code true|false} flag. */
  public static boolean bool(CommandFlags flags, String flag, boolean fallback) {
    String v = flags.string(flag, String.valueOf(fallback)).trim().toLowerCase(java.util.Locale.ROOT);
    if (!v.equals("true") && !v.equals("false")) {
      throw Errors.invalidSetting(flag, v, "must be true or false", "Pass " + flag + " " + !fallback + " or leave it out.");
    }
    return v.equals("true");
  }

  /** Fashion-MNIST, cut to --train-limit / --test-limit examples. */
  DatasetSplits fashionMnist() {
    int trainLimit = flags.integer("--train-limit", 0, 0, FashionMnist.TRAIN_SIZE);
    int testLimit = flags.integer("--test-limit", 0, 0, FashionMnist.TEST_SIZE);
    DatasetSplits all = FashionMnist.load();
    return new DatasetSplits(trainLimit > 0 ? all.train().head(trainLimit) : all.train(),
        testLimit > 0 ? all.test().head(testLimit) : all.test(), all.channels(), all.height(), all.width(),
        all.name());
  }

  /** {@code --help} text: the mode's own flags, then a pointer to the trainer's. */
  public static String usage(String head, Map<String, String> flags, String footer) {
    StringBuilder sb = new StringBuilder(head).append("\nFlags:\n");
    flags.forEach((f, doc) -> sb.append(String.format("  %-20s %s%n", f, doc)));
    sb.append(footer).append("\nAny 'dssync train' setting (--learning-rate, --batch-size, --seed, --threads-per-worker,")
        .append(" ...) is passed to every DS-Sync run; 'dssync help' lists them.\n");
    return sb.toString();
  }

  public static Map<String, String> orderedMap(String... keyValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put(keyValues[i], keyValues[i + 1]);
    }
    return m;
  }

  public static Map<String, String> merged(Map<String, String> a, Map<String, String> b) {
    Map<String, String> m = new LinkedHashMap<>(a);
    m.putAll(b);
    return m;
  }

  public static Set<String> names(Map<String, String> flags) {
    return new LinkedHashSet<>(flags.keySet());
  }
}
