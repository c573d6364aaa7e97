package io.dssync.schedule;

import java.util.Locale;

/**
 * Which groups average by a ring, in the planner's own words: {@code train} translates the
 * trainer's all-reduce algorithm (in {@code io.dssync.collective}, a peer of this package that it
 * does not import) into it. A pair always swaps its halves directly, whatever the rule.
 */
public enum RingRule {
  /** The ring for a group of three or more whose members sit on more than one host; else direct. */
  AUTO("ring for a group of three or more on more than one host, else direct"),
  /** Every group exchanges directly. */
  DIRECT("direct exchange in every group"),
  /** The ring for every group of three or more. */
  RING("ring for every group of three or more");

  private final String meaning;

  RingRule(String meaning) {
    this.meaning = meaning;
  }

  /** Whether a group of {@code size} members, on more than one host or on one, averages by the ring. */
  public boolean ring(int size, boolean spansHosts) {
    return size >= 3 && (this == RING || this == AUTO && spansHosts);
  }

  /** The value as users write it ({@code --all-reduce}): "auto", "direct" or "ring". */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The label and what it means, for logs: "auto (ring for a group of three or more ...)". */
  public String describe() {
    return label() + " (" + meaning + ")";
  }
}
