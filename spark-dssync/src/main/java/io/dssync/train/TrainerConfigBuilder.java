package io.dssync.train;

import static io.dssync.train.TrainerConfig.MIN_WORKERS;
import static io.dssync.train.TrainerConfig.MOMENTUM;
import static io.dssync.train.TrainerConfig.OPTIMIZER;

import io.dssync.errors.Errors;
import java.util.LinkedHashMap;
import java.util.Map;

/** Collects settings, checks each as it is set, and checks combinations in {@link #build()}. */
public final class TrainerConfigBuilder {
  private final Map<String, Object> values = new LinkedHashMap<>();

  TrainerConfigBuilder() {
    for (Setting<?> s : TrainerConfig.ALL) {
      values.put(s.name(), s.defaultValue());
    }
  }

  public <T> TrainerConfigBuilder set(Setting<T> setting, T value) {
    values.put(setting.name(), setting.checked(value));
    return this;
  }

  /**
   * Sets the settings that Spark's configuration gives ({@link SparkConfSettings#parse}): call it before
   * setting flags or params, which then win over it.
   */
  public TrainerConfigBuilder sparkConf(Map<String, String> conf) {
    SparkConfSettings.parse(conf).forEach((s, v) -> values.put(s.name(), v));
    return this;
  }

  /** Sets a value given as text, by setting name ("groupSize"), flag ("--group-size") or Spark conf key. */
  public TrainerConfigBuilder set(String nameOrFlag, String text) {
    Setting<?> s = find(nameOrFlag);
    values.put(s.name(), s.parse(text));
    return this;
  }

  public TrainerConfig build() {
    TrainerConfig config = new TrainerConfig(values);
    // Cross-setting checks live in the schedule spec (g within 1..N, butterfly needs N = g^m).
    config.scheduleSpec().validate();
    if (config.minWorkers() > config.workers()) {
      throw Errors.invalidSetting(MIN_WORKERS.flag(), config.minWorkers(),
          "it is more than the " + config.workers() + " workers asked for",
          "Use " + MIN_WORKERS.flag() + " between 1 and " + config.workers()
              + ", or 0 to turn elastic training off.");
    }
    if (config.get(OPTIMIZER).equals("sgd-nesterov") && config.get(MOMENTUM) == 0) {
      throw Errors.invalidSetting(MOMENTUM.flag(), 0.0, "Nesterov momentum (--optimizer sgd-nesterov) needs a"
          + " momentum > 0, as PyTorch's SGD does", "Use " + MOMENTUM.flag() + " 0.9, or --optimizer sgd for SGD"
          + " without momentum.");
    }
    return config;
  }

  public static Setting<?> find(String nameOrFlag) {
    for (Setting<?> s : TrainerConfig.ALL) {
      if (s.name().equals(nameOrFlag) || s.flag().equals(nameOrFlag) || s.sparkConfKey().equals(nameOrFlag)) {
        return s;
      }
    }
    String[] known = TrainerConfig.ALL.stream().map(Setting::flag).toArray(String[]::new);
    throw Errors.unknownName("setting", nameOrFlag, known);
  }
}
