package io.dssync.config;

import io.dssync.errors.Errors;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * A setting of the processes that run spark-dssync, not of one fit: read where the code that needs it runs, from
 * Spark's configuration or the environment, or by the launch scripts before any JVM starts. Declared, with its
 * default and meaning, in {@link ProcessSettings}; docs/configuration.md lists them from there.
 */
public final class ProcessSetting<T> {
  /** Where the value comes from. */
  public enum Source {
    /** A Spark property (--conf, spark-defaults.conf), read on the executors. */
    SPARK_CONF,
    /** Every Spark property under a prefix, handed to Spark's own code. */
    SPARK_CONF_PREFIX,
    /** An environment variable, read by our Java code. */
    ENVIRONMENT,
    /** An environment variable, read by the launch scripts (dssync, dssync-submit, the notebook kernel). */
    LAUNCHER
  }

  private final String key;
  private final Source source;
  private final String defaultText;
  private final String doc;
  private final Function<String, T> parser;
  private final String rule;

  private ProcessSetting(String key, Source source, String defaultText, String doc, Function<String, T> parser,
      String rule) {
    this.key = key;
    this.source = source;
    this.defaultText = defaultText;
    this.doc = doc;
    this.parser = parser;
    this.rule = rule;
  }

  static ProcessSetting<Boolean> sparkFlag(String key, boolean defaultValue, String doc) {
    return new ProcessSetting<>(key, Source.SPARK_CONF, String.valueOf(defaultValue), doc,
        ProcessSetting::strictBoolean, "must be true or false");
  }

  static ProcessSetting<String> sparkPrefix(String prefix, String defaultText, String doc) {
    return new ProcessSetting<>(prefix, Source.SPARK_CONF_PREFIX, defaultText, doc, text -> text, "");
  }

  static <T> ProcessSetting<T> environment(String name, String defaultText, String doc, Function<String, T> parser,
      String rule) {
    return new ProcessSetting<>(name, Source.ENVIRONMENT, defaultText, doc, parser, rule);
  }

  static ProcessSetting<String> launcher(String name, String defaultText, String doc) {
    return new ProcessSetting<>(name, Source.LAUNCHER, defaultText, doc, text -> text, "");
  }

  public String key() {
    return key;
  }

  public Source source() {
    return source;
  }

  /** The default as the docs state it (it may depend on the machine: "python3 on the PATH"). */
  public String defaultText() {
    return defaultText;
  }

  public String doc() {
    return doc;
  }

  /** The value {@code text} gives (null or blank: none, so the default applies); a bad value fails naming the key. */
  public Optional<T> parse(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(parser.apply(text.trim()));
    } catch (IllegalArgumentException e) {
      throw Errors.invalidSetting(key, text, rule, "Correct it, or unset " + key + " for the default ("
          + defaultText + ").");
    }
  }

  private static boolean strictBoolean(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(text);
    };
  }
}
