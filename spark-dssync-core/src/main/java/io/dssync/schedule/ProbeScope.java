package io.dssync.schedule;

import java.io.Serializable;
import java.util.List;

/**
 * Which rounds of {@link ProbeRounds} a probe of {@code --schedule auto} runs. The driver ships it
 * with a probing stage; every rank derives the same rounds from it and the stage's hosts of all
 * ranks (which the transport's address exchange gives every rank alike), since both ranks of a
 * pair must run the same rounds.
 *
 * <p>A probe before the first plan runs every round ({@link #full}): racks are found from every
 * pair. A later one ({@link #of}) runs only the rounds that measure each link the plan's
 * re-plan rule reads ({@link ProbeRounds#covering}), on the plan's racks as this stage placed its
 * ranks; the pairs it skips read 0, which every reader of {@link LinkMeasurements} takes as not
 * measured. When the ranks run on other hosts than the plan measured (or there are more or fewer)
 * its racks no longer place them: that probe runs every round, since {@link ReplanRule} then
 * re-plans at once from it and the racks must be found again.
 *
 * @param racks the plan's racks; null for a probe of every round
 * @param plannedHosts the host of each rank in the probe the plan came from
 */
public record ProbeScope(RackLayout racks, List<String> plannedHosts) implements Serializable {
  public ProbeScope {
    plannedHosts = List.copyOf(plannedHosts);
  }

  /** Every round. */
  public static ProbeScope full() {
    return new ProbeScope(null, List.of());
  }

  /** The rounds that measure every link of {@code racks}, while the ranks run on {@code plannedHosts}. */
  public static ProbeScope of(RackLayout racks, String[] plannedHosts) {
    return new ProbeScope(racks, List.of(plannedHosts));
  }

  public boolean isFull() {
    return racks == null;
  }

  /** The rounds to run (ascending) when rank r runs on {@code hostOfRank[r]}. */
  public int[] rounds(String[] hostOfRank) {
    String[] planned = plannedHosts.toArray(String[]::new);
    if (isFull() || hostOfRank.length != planned.length || !ReplanRule.sameHosts(planned, hostOfRank)) {
      return ProbeRounds.all(hostOfRank.length);
    }
    return ProbeRounds.covering(racks.rackOfRank(hostOfRank), hostOfRank);
  }
}
