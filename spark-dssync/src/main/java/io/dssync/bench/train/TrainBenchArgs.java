package io.dssync.bench.train;

import io.dssync.data.DatasetSplits;
import io.dssync.data.FashionMnist;
import io.dssync.errors.Errors;
import io.dssync.launch.CommandFlags;
import io.dssync.launch.TrainingArgs;
import io.dssync.launch.TrainingArgs.RunFlag;
import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainerConfigBuilder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.apache.spark.sql.SparkSession;

/**
 * The command line of the training benchmarks ({@code train}, {@code peer}), read by the one parser
 * training commands share ({@link TrainingArgs}): the run flags, the benchmark's own flags, and any
 * trainer setting ({@code --learning-rate}, {@code --batch-size}, {@code --model}, ...) passed on
 * to every configuration's {@link TrainerConfig}. Settings the benchmark varies itself are
 * refused, so a run can never silently compare something other than what its table says.
 */
public final class TrainBenchArgs {
  /** Flags both training benchmarks understand, with their help text. */
  public static final Map<String, String> COMMON = merged(runFlags(), orderedMap(
      "--network", "Label of the network in the tables, e.g. unthrottled or throttled (default unthrottled)",
      "--out", "Results root; this mode writes <out>/<mode>/ (default bench-results)",
      "--target-accuracy", "Test accuracy whose first crossing is timed, in (0, 1)"));

  private final TrainingArgs args;

  private TrainBenchArgs(TrainingArgs args) {
    this.args = args;
  }

  /**
   * Splits {@code args} into the benchmark's flags ({@code benchFlags}) and trainer settings;
   * trainer settings in {@code refused} are an error naming why.
   */
  public static TrainBenchArgs parse(String[] args, Set<String> benchFlags, Map<Setting<?>, String> refused) {
    return new TrainBenchArgs(TrainingArgs.parse(args, benchFlags, refused));
  }

  private static Map<String, String> runFlags() {
    Map<String, String> m = new LinkedHashMap<>();
    for (RunFlag f : RunFlag.values()) {
      m.put(f.flag, f.help());
    }
    return m;
  }

  public CommandFlags flags() {
    return args.flags();
  }

  /** A config builder with {@code defaults}, then the user's trainer settings on top. */
  public TrainerConfigBuilder trainer(Map<Setting<?>, String> defaults) {
    return args.trainer(defaults);
  }

  /** The trainer settings the user passed, as "flag value" text for the summary. */
  String trainerSettingsText() {
    return args.trainerSettingsText();
  }

  public String network() {
    return flags().label("--network", "unthrottled", "throttled");
  }

  public Path out() {
    return flags().path("--out", "bench-results");
  }

  public double targetAccuracy(double fallback) {
    double t = flags().number("--target-accuracy", fallback, 0);
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
    DatasetSplits data = args.limited(FashionMnist.load());
    return args.onSession(config, spark -> body.apply(spark, data));
  }

  /** {@code --help} text: the mode's own flags, then a pointer to the trainer's. */
  public static String usage(String head, Map<String, String> flags, String footer) {
    StringBuilder sb = new StringBuilder(head).append("\nFlags:\n");
    flags.forEach((f, doc) -> sb.append(String.format("  %-20s %s%n", f, doc)));
    sb.append(footer)
        .append("\nAny 'dssync train' setting (--learning-rate, --batch-size, --seed, --threads-per-worker,")
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
