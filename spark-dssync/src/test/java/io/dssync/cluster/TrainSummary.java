package io.dssync.cluster;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code dssync train:} summary line a run printed, and its key=value fields. */
record TrainSummary(String line, Map<String, String> fields) {
  private static final Pattern FIELD = Pattern.compile("(\\w+)=(\\S+)");

  /** Parses the last summary line in {@code output}; fails showing the output's end if none. */
  static TrainSummary parse(String output) {
    String line = null;
    for (String l : output.split("\n")) {
      if (l.startsWith("dssync train: ")) {
        line = l;
      }
    }
    if (line == null) {
      throw new AssertionError("no 'dssync train:' summary line in the output; its end:\n"
          + Scripts.tail(output, 40));
    }
    Map<String, String> fields = new HashMap<>();
    Matcher m = FIELD.matcher(line);
    while (m.find()) {
      fields.put(m.group(1), m.group(2));
    }
    return new TrainSummary(line, fields);
  }

  double number(String key) {
    String v = fields.get(key);
    if (v == null) {
      throw new AssertionError("summary has no " + key + ": " + fields);
    }
    return Double.parseDouble(v.replaceAll("s$", ""));
  }
}
