package io.dssync.launch;

import io.dssync.data.DatasetSplits;
import io.dssync.errors.Errors;
import io.dssync.train.Setting;
import io.dssync.train.Setting.Group;
import io.dssync.train.SparkConfSettings;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainerConfigBuilder;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * The command line of a command that trains ({@code dssync train}, {@code dssync bench train|peer}):
 * the run flags every such command has ({@link RunFlag}), the command's own flags, and any trainer
 * setting ({@code --learning-rate}, {@code --batch-size}, ...) passed on to its {@link TrainerConfig}.
 * Settings a command sets itself can be refused, so a benchmark never silently measures something
 * other than what its table says.
 */
public final class TrainingArgs {
  /** The flags about the run, not the training algorithm, that every training command has. */
  public enum RunFlag {
    MASTER("--master", "Spark master URL; local mode uses one JVM with a task thread per worker thread",
        "spark-submit's master, else local[<workers x threads-per-worker>]", Group.CLUSTER),
    TRAIN_LIMIT("--train-limit", "Use only the first N training examples (0 = all)", "0", Group.DATA_AND_MODEL),
    TEST_LIMIT("--test-limit", "Evaluate on only the first N test examples (0 = all)", "0", Group.DATA_AND_MODEL);

    public final String flag;
    public final String doc;
    public final String defaultText;
    /** Where help lists it, beside the trainer settings of the same group. */
    public final Group group;

    RunFlag(String flag, String doc, String defaultText, Group group) {
      this.flag = flag;
      this.doc = doc;
      this.defaultText = defaultText;
      this.group = group;
    }

    /** The doc with its default, as help lists it. */
    public String help() {
      return doc + " (default: " + defaultText + ")";
    }
  }

  private final CommandFlags flags;
  private final Map<Setting<?>, String> trainerSettings;
  private final int trainLimit;
  private final int testLimit;

  private TrainingArgs(CommandFlags flags, Map<Setting<?>, String> trainerSettings) {
    this.flags = flags;
    this.trainerSettings = trainerSettings;
    // Read now, so a bad limit fails before any dataset is loaded.
    this.trainLimit = flags.integer(RunFlag.TRAIN_LIMIT.flag, 0, 0, Integer.MAX_VALUE);
    this.testLimit = flags.integer(RunFlag.TEST_LIMIT.flag, 0, 0, Integer.MAX_VALUE);
  }

  /** Like {@link #of}, from the command line's words. */
  public static TrainingArgs parse(String[] args, Set<String> ownFlags, Map<Setting<?>, String> refused) {
    return of(CommandFlags.pairs(args), ownFlags, refused);
  }

  /**
   * Splits {@code given} into run flags, {@code ownFlags} and trainer settings; a trainer setting in
   * {@code refused} is an error saying why, any other flag an error listing the known ones.
   */
  public static TrainingArgs of(Map<String, String> given, Set<String> ownFlags, Map<Setting<?>, String> refused) {
    Set<String> known = new LinkedHashSet<>();
    Stream.of(RunFlag.values()).forEach(f -> known.add(f.flag));
    known.addAll(ownFlags);
    Map<String, String> own = new LinkedHashMap<>();
    Map<Setting<?>, String> trainer = new LinkedHashMap<>();
    for (Map.Entry<String, String> f : given.entrySet()) {
      String flag = f.getKey();
      String value = f.getValue();
      if (known.contains(flag)) {
        own.put(flag, value);
        continue;
      }
      Setting<?> setting = findSetting(flag, known);
      if (refused.containsKey(setting)) {
        throw Errors.invalidSetting(flag, value, "the benchmark sets it itself: " + refused.get(setting),
            "Leave " + flag + " out.");
      }
      setting.parse(value); // fails now, naming the flag, rather than in the middle of the run
      trainer.put(setting, value);
    }
    return new TrainingArgs(CommandFlags.of(own, known), trainer);
  }

  private static Setting<?> findSetting(String flag, Set<String> known) {
    for (Setting<?> s : TrainerConfig.ALL) {
      if (s.flag().equals(flag)) {
        return s;
      }
    }
    Object[] all = Stream.concat(known.stream(), TrainerConfig.ALL.stream().map(Setting::flag)).toArray();
    throw Errors.unknownName("flag", flag, all);
  }

  /** The run flags and the command's own flags. */
  public CommandFlags flags() {
    return flags;
  }

  /**
   * A config builder with the command's {@code defaults}, then the settings of Spark's configuration
   * ({@code --conf spark.dssync.*}), then the user's flags on top.
   */
  public TrainerConfigBuilder trainer(Map<Setting<?>, String> defaults) {
    TrainerConfigBuilder b = TrainerConfig.builder();
    defaults.forEach((s, v) -> b.set(s.name(), v));
    b.sparkConf(SparkConfSettings.submitted());
    trainerSettings.forEach((s, v) -> b.set(s.name(), v));
    return b;
  }

  /** The trainer settings the user passed, as "flag value" text for a summary. */
  public String trainerSettingsText() {
    StringBuilder sb = new StringBuilder();
    trainerSettings.forEach((s, v) -> sb.append(sb.length() == 0 ? "" : " ").append(s.flag()).append(' ').append(v));
    return sb.length() == 0 ? "(defaults)" : sb.toString();
  }

  /** --master; without it, the master spark-submit was given, else one local slot per worker thread. */
  public String master(TrainerConfig config) {
    return flags.string(RunFlag.MASTER.flag, SparkSessions.submittedMaster()
        .orElse("local[" + config.workers() * config.get(TrainerConfig.THREADS_PER_WORKER) + "]"));
  }

  /** {@code all} cut to --train-limit / --test-limit examples. */
  public DatasetSplits limited(DatasetSplits all) {
    return new DatasetSplits(trainLimit > 0 ? all.train().head(trainLimit) : all.train(),
        testLimit > 0 ? all.test().head(testLimit) : all.test(), all.channels(), all.height(), all.width(),
        all.name(), all.vocabSize());
  }

  /** Starts the session {@code config} needs on {@link #master}, runs {@code body}, always stops the session. */
  public <T> T onSession(TrainerConfig config, Function<SparkSession, T> body) {
    SparkSession spark = SparkSessions.forMaster(master(config), config);
    try {
      return body.apply(spark);
    } finally {
      spark.stop();
    }
  }
}
