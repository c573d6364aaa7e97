package io.dssync.models;

import io.dssync.errors.Errors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Size of a BERT encoder: layers, attention heads and hidden width. Written as a model-name suffix
 * {@code -L<layers>-H<heads>-D<width>} ("bert-mlm-L4-H4-D256"); without a suffix, {@link #DEFAULT}.
 */
record BertSize(int layers, int heads, int width) {
  /** Small enough to train on two CPU cores in minutes. */
  static final BertSize DEFAULT = new BertSize(2, 2, 64);
  static final String SUFFIX = "(?:-L(\\d+)-H(\\d+)-D(\\d+))?";

  /** The size in groups 1..3 of a name matched with {@link #SUFFIX} at its end. */
  static BertSize from(Matcher m, String name) {
    if (m.group(1) == null) {
      return DEFAULT;
    }
    BertSize s = new BertSize(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
        Integer.parseInt(m.group(3)));
    if (s.layers < 1 || s.heads < 1 || s.width < 1 || s.width % s.heads != 0) {
      throw Errors.invalidSetting("model", name, "needs layers, heads and width >= 1 with width divisible by heads",
          "Use for example bert-mlm-L2-H4-D128.");
    }
    return s;
  }

  static Pattern pattern(String base) {
    // Case-insensitive: "-L2-H4-D128" and "-l2-h4-d128" name the same size.
    return Pattern.compile(Pattern.quote(base) + SUFFIX, Pattern.CASE_INSENSITIVE);
  }
}
