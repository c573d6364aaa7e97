package io.dssync.data.table;

import io.dssync.errors.Errors;
import java.util.Arrays;
import java.util.Locale;

/**
 * What reading a table does with a row whose features or label are null, NaN or infinite: the
 * values and meaning of the trainer's {@code --bad-records} setting.
 */
public enum BadRecords {
  /** Stop at the first bad row, naming it. */
  FAIL,
  /** Drop bad rows, log the first few per partition and count them. */
  SKIP;

  /** The policy named {@code name} ({@code fail} or {@code skip}, any case). */
  public static BadRecords of(String name) {
    for (BadRecords b : values()) {
      if (b.name().equalsIgnoreCase(name == null ? "" : name.trim())) {
        return b;
      }
    }
    throw Errors.unknownName("--bad-records policy", name,
        Arrays.stream(values()).map(b -> b.name().toLowerCase(Locale.ROOT)).toArray());
  }
}
