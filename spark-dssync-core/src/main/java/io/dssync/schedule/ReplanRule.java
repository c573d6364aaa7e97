package io.dssync.schedule;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * When {@code --schedule auto} re-plans, with hysteresis against a noisy probe (pure: no Spark). A
 * link is a pair of the plan's racks, or a rack with itself, measured by the median bandwidth of
 * its host pairs ({@link LinkMeasurements#rackPairBandwidth}). The plan is redone when the same
 * link differs more than {@link #FACTOR} from the plan's measurement, the same way (slower, or
 * faster), in two consecutive probes. One probe that reads a link 2x off (jitter on a loaded
 * machine, a pause in one message) then keeps the plan, and the next probe, back within the factor,
 * clears it; a real change (an uplink dropped from 100 to 20 Mbit/s) re-plans at the second probe
 * after it. The cost of the rule is that one probe interval (--replan-every stages) more runs on
 * the old plan. When the executors run on other hosts than the plan measured, its racks no longer
 * place every rank: that re-plans at once. A later probe may meet only some pairs ({@link
 * ProbeScope}); each link is then compared over the pairs it met ({@link
 * LinkMeasurements#changesSince}), and a pair it did not meet is neither slow nor fast.
 */
public final class ReplanRule {
  /** A link must differ by more than this factor from the plan's measurement. */
  public static final double FACTOR = 2;

  private final LinkMeasurements planned;
  private final RackLayout racks;
  /** The links beyond {@link #FACTOR} in the previous probe. */
  private Map<String, LinkMeasurements.Change> beyondBefore = Map.of();

  /** The rule for a plan made from {@code planned} with racks {@code racks}. */
  public ReplanRule(LinkMeasurements planned, RackLayout racks) {
    this.planned = planned;
    this.racks = racks;
  }

  /** What one probe means for the plan. */
  public enum Outcome {
    /** Every link within {@link #FACTOR} of the plan's measurement. */
    KEEP,
    /** A link beyond the factor in this probe only: kept until the next probe agrees. */
    WATCH,
    /** A link beyond the factor the same way in this probe and the one before. */
    REPLAN,
    /** The executors run on other hosts than the plan measured. */
    HOSTS_CHANGED
  }

  /**
   * @param change the link that decided: the confirmed one (REPLAN), else the largest change (null
   *     when no link was measured in both, or the hosts changed)
   * @param before for REPLAN, the same link in the probe before
   */
  public record Verdict(Outcome outcome, LinkMeasurements.Change change, LinkMeasurements.Change before) {
    public boolean replan() {
      return outcome == Outcome.REPLAN || outcome == Outcome.HOSTS_CHANGED;
    }

    @Override
    public String toString() {
      return switch (outcome) {
        case KEEP -> String.format(Locale.ROOT, "links within %.0fx of the plan's measurements (largest change: %s)",
            FACTOR, change);
        case WATCH -> String.format(Locale.ROOT, "%s is beyond %.0fx of the plan's measurement in this probe only;"
            + " re-plan if the next probe agrees", change, FACTOR);
        case REPLAN -> String.format(Locale.ROOT, "%s, and %.1f MB/s in the probe before (beyond %.0fx twice)",
            change, before.nowMBps(), FACTOR);
        case HOSTS_CHANGED -> "the executors moved to other hosts";
      };
    }
  }

  /**
   * True when the ranks of {@code now} run on the hosts {@code planned} measured, in any order; else
   * a plan's racks no longer place them ({@link Outcome#HOSTS_CHANGED}; {@link ProbeScope} then
   * probes every pair).
   */
  public static boolean sameHosts(String[] planned, String[] now) {
    return new HashSet<>(List.of(now)).equals(new HashSet<>(List.of(planned)));
  }

  /** Takes one probe's measurements (the probes in order) and says whether to re-plan. */
  public Verdict observe(LinkMeasurements probe) {
    if (!sameHosts(planned.hosts(), probe.hosts())) {
      beyondBefore = Map.of();
      return new Verdict(Outcome.HOSTS_CHANGED, null, null);
    }
    Map<String, LinkMeasurements.Change> beyond = new LinkedHashMap<>();
    List<LinkMeasurements.Change> changes = probe.changesSince(planned, racks);
    LinkMeasurements.Change confirmed = null;
    for (LinkMeasurements.Change c : changes) {
      if (c.size() <= FACTOR) {
        continue;
      }
      beyond.put(c.link(), c);
      LinkMeasurements.Change before = beyondBefore.get(c.link());
      if (before != null && before.slower() == c.slower() && (confirmed == null || c.size() > confirmed.size())) {
        confirmed = c;
      }
    }
    Map<String, LinkMeasurements.Change> previous = beyondBefore;
    beyondBefore = beyond;
    if (confirmed != null) {
      return new Verdict(Outcome.REPLAN, confirmed, previous.get(confirmed.link()));
    }
    return new Verdict(beyond.isEmpty() ? Outcome.KEEP : Outcome.WATCH, LinkMeasurements.Change.largest(changes), null);
  }
}
