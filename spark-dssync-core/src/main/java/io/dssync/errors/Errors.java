package io.dssync.errors;

import java.util.Arrays;
import java.util.Locale;

/**
 * Errors of configuration, built in one place with the other classes of this package: a bad setting
 * or an unknown name, with what is allowed and what to do. Messages say what value was bad, what is
 * allowed, and what to do about it.
 */
public final class Errors {
  private Errors() {}

  /** A setting {@code key} has value {@code value}, which breaks {@code rule}; {@code fix} says what to do. */
  public static DsSyncException invalidSetting(String key, Object value, String rule, String fix) {
    return new DsSyncException(
        ErrorKind.CONFIG, "Invalid " + key + " = " + value + ": " + rule + ". " + fix);
  }

  /**
   * A training setting with a bad value, named by its command-line flag: {@code settingName} is the
   * setting's name ({@code groupSize}), the message says {@code --group-size}.
   */
  public static DsSyncException invalidFlag(String settingName, Object value, String rule, String fix) {
    return invalidSetting(flag(settingName), value, rule, fix);
  }

  /** The command-line flag of a setting: camelCase name to --kebab-case ({@code groupSize} -> {@code --group-size}). */
  public static String flag(String settingName) {
    return "--" + settingName.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
  }

  /**
   * A name (model, dataset, schedule, optimizer ...) that is not one of {@code known}; a known name
   * within two edits of it (a typo) is suggested first.
   */
  public static DsSyncException unknownName(String what, String value, Object[] known) {
    String guess = closest(value, known);
    return new DsSyncException(
        ErrorKind.CONFIG,
        "Unknown " + what + " '" + value + "'" + (guess == null ? "" : " (did you mean " + guess + "?)")
            + ". Choose one of " + Arrays.toString(known) + ".");
  }

  /** A {@code spark.dssync.*} key in Spark's configuration that no setting has: a typo would go unnoticed. */
  public static DsSyncException unknownSparkConfKey(String key, Object[] known) {
    String guess = closest(key, known);
    return new DsSyncException(ErrorKind.CONFIG, "Unknown Spark conf key " + key
        + (guess == null ? "" : " (did you mean " + guess + "?)") + ": no setting of spark-dssync has that name."
        + " Correct or remove it; docs/configuration.md lists every key.");
  }

  /** The first of {@code known} fewest edits from {@code value}, if at most two and fewer than half its length. */
  public static String closest(String value, Object[] known) {
    if (value == null) {
      return null;
    }
    String typed = value.toLowerCase(Locale.ROOT);
    int limit = Math.min(2, (value.length() - 1) / 2);
    String best = null;
    int bestEdits = Integer.MAX_VALUE;
    for (Object k : known) {
      String name = String.valueOf(k);
      int e = edits(typed, name.toLowerCase(Locale.ROOT));
      if (e <= limit && e < bestEdits) {
        best = name;
        bestEdits = e;
      }
    }
    return best;
  }

  /** Levenshtein distance: insertions, deletions and substitutions that turn {@code a} into {@code b}. */
  private static int edits(String a, String b) {
    int[] row = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      row[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      int diagonal = row[0];
      row[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int above = row[j];
        int substitute = diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1), substitute);
        diagonal = above;
      }
    }
    return row[b.length()];
  }

  /**
   * A model that cannot read the dataset's examples; {@code suggestion} names a model (and preset)
   * that can.
   */
  public static DsSyncException modelDoesNotFitData(String model, String dataset, String holds, String reads,
      String suggestion) {
    return invalidSetting("--model", model, "dataset " + dataset + " holds " + holds + ", which model " + model
        + " cannot read (it reads " + reads + ")", suggestion);
  }

  /** The first line of {@code text} ("null" for none): what a message quotes of a long failure text. */
  static String firstLine(String text) {
    String t = String.valueOf(text);
    int eol = t.indexOf('\n');
    return eol > 0 ? t.substring(0, eol) : t;
  }
}
