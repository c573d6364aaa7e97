package io.dssync.train;

import io.dssync.errors.Errors;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One training setting, declared once: its name (also the Spark conf key {@code spark.dssync.<name>} and
 * the CLI flag), documentation, default, parser and range check.
 */
public final class Setting<T> {
  /** Where a setting appears in {@code dssync train --help} and in docs/configuration.md. */
  public enum Group {
    TRAINING("training"), DATA_AND_MODEL("data and model"), SYNCHRONISATION("synchronisation"), CLUSTER("cluster"),
    FAULT_TOLERANCE("fault tolerance"), ADVANCED("advanced");

    private final String title;

    Group(String title) {
      this.title = title;
    }

    public String title() {
      return title;
    }
  }

  private final String name;
  private final String doc;
  private final T defaultValue;
  private final Function<String, T> parser;
  private final Predicate<T> check;
  private final String rule;
  /** The accepted values of a {@link #oneOf} setting, from which a typo's likely meaning is guessed; else null. */
  private final String[] choices;
  /** Null until {@link #in} names it; help and the configuration reference refuse a setting without one. */
  private Group group;

  private Setting(String name, String doc, T defaultValue, Function<String, T> parser, Predicate<T> check,
      String rule) {
    this(name, doc, defaultValue, parser, check, rule, null);
  }

  private Setting(String name, String doc, T defaultValue, Function<String, T> parser, Predicate<T> check,
      String rule, String[] choices) {
    this.name = name;
    this.doc = doc;
    this.defaultValue = defaultValue;
    this.parser = parser;
    this.check = check;
    this.rule = rule;
    this.choices = choices;
  }

  static Setting<Integer> intAtLeast(String name, int defaultValue, int min, String doc) {
    return new Setting<>(name, doc, defaultValue, Integer::parseInt, v -> v >= min, "must be an integer >= " + min);
  }

  static Setting<Long> longSetting(String name, long defaultValue, String doc) {
    return new Setting<>(name, doc, defaultValue, Long::parseLong, v -> true, "must be an integer");
  }

  static Setting<Double> positive(String name, double defaultValue, String doc) {
    return new Setting<>(name, doc, defaultValue, Double::parseDouble,
        v -> v > 0 && Double.isFinite(v), "must be a finite number > 0");
  }

  static Setting<Double> nonNegative(String name, double defaultValue, String doc) {
    return new Setting<>(name, doc, defaultValue, Double::parseDouble,
        v -> v >= 0 && Double.isFinite(v), "must be a finite number >= 0");
  }

  static Setting<Double> inUnitInterval(String name, double defaultValue, String doc) {
    return new Setting<>(name, doc, defaultValue, Double::parseDouble,
        v -> v >= 0 && v < 1, "must be in [0, 1)");
  }

  /** A finite number accepted by {@code ok}; {@code rule} says which ("must be in (0, 1]"). */
  static Setting<Double> number(String name, double defaultValue, String doc, Predicate<Double> ok, String rule) {
    return new Setting<>(name, doc, defaultValue, Double::parseDouble, v -> Double.isFinite(v) && ok.test(v), rule);
  }

  static Setting<String> oneOf(String name, String defaultValue, String doc, String... allowed) {
    return new Setting<>(name, doc, defaultValue, s -> s.trim().toLowerCase(Locale.ROOT),
        v -> java.util.Arrays.asList(allowed).contains(v), "must be one of " + String.join(", ", allowed), allowed);
  }

  /** A name accepted by {@code known} (trimmed); {@code rule} says what is accepted. */
  static Setting<String> name(String name, String defaultValue, String doc, Predicate<String> known, String rule) {
    return new Setting<>(name, doc, defaultValue, String::trim, known, rule);
  }

  /** Free text (a path, for example); any value, trimmed; empty means "not set". */
  static Setting<String> text(String name, String defaultValue, String doc) {
    return new Setting<>(name, doc, defaultValue, String::trim, v -> true, "must be text");
  }

  /** Declares the help group of this setting; call once, on its declaration. */
  Setting<T> in(Group group) {
    if (this.group != null) {
      throw new IllegalStateException(name + " is already in " + this.group);
    }
    this.group = group;
    return this;
  }

  /** The help group, or null when the declaration names none. */
  public Group group() {
    return group;
  }

  public String name() {
    return name;
  }

  /** The command-line flag: camelCase name to --kebab-case. */
  public String flag() {
    return Errors.flag(name);
  }

  /** The key that sets it in Spark's configuration ({@code --conf spark.dssync.groupSize=4}). */
  public String sparkConfKey() {
    return SparkConfSettings.PREFIX + name;
  }

  public String doc() {
    return doc;
  }

  public T defaultValue() {
    return defaultValue;
  }

  /** What a valid value is ("must be an integer >= 1"), as error messages and the configuration page say it. */
  public String rule() {
    return rule;
  }

  /** Parses and checks {@code text}; the error names the flag, the value and the rule. */
  public T parse(String text) {
    return parse(text, flag());
  }

  /** As {@link #parse(String)}, the error naming {@code where} the text came from (a Spark conf key). */
  public T parse(String text, String where) {
    T value;
    try {
      value = parser.apply(text);
    } catch (RuntimeException e) {
      throw Errors.invalidSetting(where, text, rule, doc);
    }
    return checked(value, where);
  }

  public T checked(T value) {
    return checked(value, flag());
  }

  private T checked(T value, String where) {
    if (value == null || !check.test(value)) {
      String guess = choices == null || value == null ? null : Errors.closest(value.toString(), choices);
      throw Errors.invalidSetting(where, value, guess == null ? rule : rule + " (did you mean " + guess + "?)", doc);
    }
    return value;
  }
}
