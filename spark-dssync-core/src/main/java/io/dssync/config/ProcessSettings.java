package io.dssync.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * Every setting of the processes that run spark-dssync, as opposed to a fit's settings
 * ({@code io.dssync.train.TrainerConfig}): the data plane's Spark properties, the environment our code reads,
 * and the environment of the launch scripts.
 */
public final class ProcessSettings {
  public static final ProcessSetting<Boolean> SHARED_MEMORY = ProcessSetting.sparkFlag(
      "spark.dssync.sharedMemory.enabled", true, "Executors of one host exchange parts through /dev/shm. Off"
          + " whenever Spark encrypts traffic or local files (spark.network.crypto.enabled,"
          + " spark.io.encryption.enabled, spark.ssl.rpc.enabled): then they use the encrypted network path.");
  public static final ProcessSetting<String> CHANNEL_IO = ProcessSetting.sparkPrefix("spark.dssync.io.",
      "Spark's defaults",
      "Spark's network settings (io.mode, io.serverThreads, ...) for the transport's own channel, as"
          + " spark.dssync.io.serverThreads=4.");
  public static final ProcessSetting<Path> DATA_DIR = ProcessSetting.environment("DSSYNC_DATA_DIR",
      "~/.cache/dssync/datasets", "Where datasets are fetched to and read from; the system property dssync.dataDir"
          + " sets it when the variable is unset.", ProcessSettings::path, "must be a path");
  public static final ProcessSetting<String> PYTHON = ProcessSetting.environment("DSSYNC_PYTHON",
      "python3 on the PATH, else /usr/bin/python3", "The Python, with PyTorch, that runs the benchmarks' Gloo and"
          + " DDP peers.", text -> text, "must name a Python interpreter");
  public static final ProcessSetting<String> JAVA_HOME = ProcessSetting.launcher("JAVA_HOME", "java on the PATH",
      "The JDK that runs ./dssync, dssync-submit, standalone-cluster and the notebook kernel. Use Java 17 or 21.");
  public static final ProcessSetting<String> DRIVER_MEMORY = ProcessSetting.launcher("DSSYNC_DRIVER_MEMORY", "6g",
      "Heap of the driver JVM; in local mode it holds the examples and their shards. A heap too small fails the fit"
          + " naming this setting.");
  public static final ProcessSetting<String> JAVA_OPTS = ProcessSetting.launcher("DSSYNC_JAVA_OPTS", "",
      "More options for the driver JVM; Spark settings as -Dspark.key=value.");
  public static final ProcessSetting<String> LOCAL_IP = ProcessSetting.launcher("SPARK_LOCAL_IP", "127.0.0.1",
      "The address Spark binds to.");

  /** All of them, in the order the docs list them. */
  public static final List<ProcessSetting<?>> ALL =
      List.of(SHARED_MEMORY, CHANNEL_IO, DATA_DIR, PYTHON, JAVA_HOME, DRIVER_MEMORY, JAVA_OPTS, LOCAL_IP);

  private ProcessSettings() {}

  /** Whether {@code key} is a Spark property that one of these settings declares. */
  public static boolean declaresSparkKey(String key) {
    return ALL.stream().anyMatch(s -> s.source() == ProcessSetting.Source.SPARK_CONF && s.key().equals(key)
        || s.source() == ProcessSetting.Source.SPARK_CONF_PREFIX && key.startsWith(s.key()));
  }

  /**
   * Whether the Spark property {@code key} is one of these settings; if so, its value {@code text} is checked, so
   * that a bad one fails where this runs (the driver, before any job) and not on the executors that read it.
   * Prefixed properties are Spark's own settings, which Spark checks.
   */
  public static boolean checkSparkProperty(String key, String text) {
    ALL.stream().filter(s -> s.source() == ProcessSetting.Source.SPARK_CONF && s.key().equals(key))
        .forEach(s -> s.parse(text));
    return declaresSparkKey(key);
  }

  /** The Spark properties these settings declare by their whole key, for naming the likely one of a typo. */
  public static List<String> sparkKeys() {
    return ALL.stream().filter(s -> s.source() == ProcessSetting.Source.SPARK_CONF).map(ProcessSetting::key)
        .toList();
  }

  private static Path path(String text) {
    try {
      return Path.of(text);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(text, e);
    }
  }
}
