package io.dssync.launch;

import io.dssync.errors.Errors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The {@code --flag value} (or {@code --flag=value}) pairs of one command, read with typed getters
 * that reject bad values through {@link Errors#invalidSetting} (naming the flag, the value and the
 * fix). Unknown flags are rejected up front, so a typo never silently falls back to a default. The
 * one parser of command lines: {@code dssync train} and every bench mode read theirs here.
 */
public final class CommandFlags {
  private final Map<String, String> values = new LinkedHashMap<>();

  private CommandFlags() {}

  /** Parses {@code args}; every flag must be one of {@code known} and carry a value. */
  public static CommandFlags parse(String[] args, Set<String> known) {
    return of(pairs(args), known);
  }

  /** The flags of {@code given}; every one must be in {@code known}. */
  static CommandFlags of(Map<String, String> given, Set<String> known) {
    CommandFlags flags = new CommandFlags();
    for (Map.Entry<String, String> f : given.entrySet()) {
      if (!known.contains(f.getKey())) {
        throw Errors.unknownName("flag", f.getKey(), known.toArray());
      }
      flags.values.put(f.getKey(), f.getValue());
    }
    return flags;
  }

  /**
   * The {@code --flag value} and {@code --flag=value} pairs of {@code args} in order (a flag given
   * twice: the last wins).
   */
  public static Map<String, String> pairs(String[] args) {
    Map<String, String> pairs = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      int eq = flag.indexOf('=');
      if (flag.startsWith("--") && eq > 2) {
        pairs.put(flag.substring(0, eq), flag.substring(eq + 1));
        continue;
      }
      if (i + 1 >= args.length) {
        throw Errors.invalidSetting(flag, "(nothing)", "a flag needs a value",
            "Write " + flag + " VALUE or " + flag + "=VALUE.");
      }
      pairs.put(flag, args[++i]);
    }
    return pairs;
  }

  public boolean has(String flag) {
    return values.containsKey(flag);
  }

  public String string(String flag, String fallback) {
    return values.getOrDefault(flag, fallback);
  }

  public Path path(String flag, String fallback) {
    return Path.of(string(flag, fallback));
  }

  /** A {@code true|false} flag. */
  public boolean bool(String flag, boolean fallback) {
    String v = string(flag, String.valueOf(fallback)).trim().toLowerCase(Locale.ROOT);
    if (!v.equals("true") && !v.equals("false")) {
      throw Errors.invalidSetting(flag, v, "must be true or false",
          "Pass " + flag + " " + !fallback + " or leave it out.");
    }
    return v.equals("true");
  }

  /** A short label for tables and file rows, such as a network's name. */
  public String label(String flag, String fallback, String example) {
    String label = string(flag, fallback);
    if (!label.matches("[A-Za-z0-9_.-]+")) {
      throw Errors.invalidSetting(flag, label, "must be a short label of letters, digits, '.', '_' or '-'",
          "Pass e.g. " + flag + " " + example + ".");
    }
    return label;
  }

  /** An int in [min, max]. */
  public int integer(String flag, int fallback, int min, int max) {
    String v = values.get(flag);
    if (v == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(v.trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw Errors.invalidSetting(flag, v, "it must be a whole number "
        + (max == Integer.MAX_VALUE ? ">= " + min : "from " + min + " to " + max),
        "Pass e.g. " + flag + " " + Math.max(min, Math.min(max, fallback)) + ".");
  }

  /** A finite double greater than {@code exclusiveMin}. */
  public double number(String flag, double fallback, double exclusiveMin) {
    String v = values.get(flag);
    if (v == null) {
      return fallback;
    }
    try {
      double d = Double.parseDouble(v.trim());
      if (Double.isFinite(d) && d > exclusiveMin) {
        return d;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw Errors.invalidSetting(flag, v, "it must be a number greater than " + exclusiveMin,
        "Pass e.g. " + flag + " " + fallback + ".");
  }

  /** A finite double >= 0. */
  public double nonNegative(String flag, double fallback) {
    String v = values.get(flag);
    if (v == null) {
      return fallback;
    }
    try {
      double d = Double.parseDouble(v.trim());
      if (Double.isFinite(d) && d >= 0) {
        return d;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw Errors.invalidSetting(flag, v, "it must be a number >= 0", "Pass e.g. " + flag + " " + fallback + ".");
  }

  /** A comma-separated list of ints, each in [min, max]; sorted, duplicates removed. */
  public List<Integer> integers(String flag, List<Integer> fallback, int min, int max) {
    return list(flag, fallback, part -> {
      try {
        int n = Integer.parseInt(part);
        return n >= min && n <= max ? n : null;
      } catch (NumberFormatException e) {
        return null;
      }
    }, "every entry must be a whole number from " + min + " to " + max,
        "Pass e.g. " + flag + " " + min + "," + max + ".");
  }

  /** A comma-separated list of byte sizes such as {@code 4K,64M,1G}; sorted, duplicates removed. */
  public List<Long> byteSizes(String flag, List<Long> fallback, long min, long max) {
    return list(flag, fallback, part -> {
      long bytes = parseBytes(part);
      return bytes >= min && bytes <= max ? bytes : null;
    }, "every size must be from " + ByteSize.label(min) + " to " + ByteSize.label(max),
        "Write sizes as a number with an optional K, M or G suffix (powers of 1024), e.g. 4K,64M.");
  }

  /** A comma-separated list read by {@code entry} (null for a bad entry, which breaks {@code rule}). */
  private <T extends Comparable<T>> List<T> list(String flag, List<T> fallback, Function<String, T> entry,
      String rule, String fix) {
    String v = values.get(flag);
    if (v == null) {
      return fallback;
    }
    TreeSet<T> out = new TreeSet<>(); // sorted, duplicates removed
    for (String part : v.split(",")) {
      T t = entry.apply(part.trim());
      if (t == null) {
        throw Errors.invalidSetting(flag, v, rule + " ('" + part + "' is not)", fix);
      }
      out.add(t);
    }
    return new ArrayList<>(out);
  }

  /** Bytes of {@code 4096}, {@code 4K}, {@code 64M}, {@code 1G} (binary units); -1 when malformed. */
  public static long parseBytes(String text) {
    String t = text.toUpperCase(Locale.ROOT).replace("IB", "").replace("B", "");
    long unit = 1;
    if (!t.isEmpty()) {
      switch (t.charAt(t.length() - 1)) {
        case 'K' -> unit = 1L << 10;
        case 'M' -> unit = 1L << 20;
        case 'G' -> unit = 1L << 30;
        default -> unit = 1;
      }
    }
    String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
    try {
      long n = Long.parseLong(digits.trim());
      return n < 0 ? -1 : Math.multiplyExact(n, unit);
    } catch (NumberFormatException | ArithmeticException e) {
      return -1;
    }
  }
}
