package io.dssync.schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Keeps most averaging inside racks (hosts that share a fast network) and crosses the slow
 * inter-rack links only every C-th step (DESIGN.md section 6, the paper's topology-aware version).
 *
 * <ul>
 *   <li>In-rack steps: each rack's ranks are shuffled (seeded by seed, reshuffle r = step / P and
 *       the rack) and cut into groups of g by the {@link Partitions} rule; a rack smaller than g is
 *       one group. No group contains ranks of two racks.
 *   <li>Cross-rack steps, after every step t with (t + 1) % C == 0 when there are two or more
 *       racks. Racks of one size k >= 2: all ranks average together, in two levels
 *       ({@link #twoLevelRacksAt}: inside each rack, then across racks on 1/k of the vector, then
 *       inside each rack again), so each rack's uplink carries the vector about once, not k times, and
 *       the step is an exact global average. Otherwise each rack's ranks are shuffled (seeded by seed
 *       and t) and rank j of every rack joins cross group j mod m, m = the smallest rack's size: every
 *       cross group holds at least one rank of every rack, so one such step mixes all racks.
 * </ul>
 *
 * <p>Pure: the groups depend only on (rack of each rank, g, P, C, seed, step).
 */
final class TopologySchedule extends KeyedPartitions {
  private static final long serialVersionUID = 1L;
  /** Keeps the in-rack and cross-rack random streams apart. */
  private static final long CROSS_SALT = 0x5851F42D4C957F2DL;

  private final int[][] racks;
  private final int[] rackOfRank;
  /** The one group of a cross-rack step averaged in two levels; null when racks differ in size or have one rank. */
  private final int[][] everyone;
  private final int groupSize;
  private final int shufflePeriod;
  private final int crossRackPeriod;
  private final long seed;

  TopologySchedule(int[] rackOfRank, int groupSize, int shufflePeriod, int crossRackPeriod, long seed) {
    super(rackOfRank.length);
    this.racks = racksOf(rackOfRank);
    this.rackOfRank = rackOfRank.clone();
    boolean equal = Arrays.stream(racks).allMatch(rack -> rack.length == racks[0].length);
    this.everyone = racks.length > 1 && equal && racks[0].length > 1
        ? new int[][] {Partitions.allRanks(rackOfRank.length)} : null;
    this.groupSize = groupSize;
    this.shufflePeriod = shufflePeriod;
    this.crossRackPeriod = crossRackPeriod;
    this.seed = seed;
  }

  /** The ranks of each rack, ascending; racks numbered 0..R-1 in {@code rackOfRank}. */
  static int[][] racksOf(int[] rackOfRank) {
    int count = 0;
    for (int rack : rackOfRank) {
      if (rack < 0) {
        throw new IllegalArgumentException("rack numbers start at 0: " + Arrays.toString(rackOfRank));
      }
      count = Math.max(count, rack + 1);
    }
    List<List<Integer>> members = new ArrayList<>();
    for (int r = 0; r < count; r++) {
      members.add(new ArrayList<>());
    }
    for (int rank = 0; rank < rackOfRank.length; rank++) {
      members.get(rackOfRank[rank]).add(rank);
    }
    return members.stream().filter(m -> !m.isEmpty())
        .map(m -> m.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
  }

  int rackCount() {
    return racks.length;
  }

  /** True if the groups after {@code step} span racks. */
  boolean isCrossRackStep(long step) {
    return racks.length > 1 && (Schedules.checkStep(step) + 1) % crossRackPeriod == 0;
  }

  /**
   * The racks of a cross-rack step whose one group averages in two levels (racks of one size, at
   * least two ranks each); null at other steps.
   */
  @Override
  public int[][] twoLevelRacksAt(long step) {
    return isCrossRackStep(step) ? racksForGlobalAverage() : null;
  }

  /** The racks when they have one size of at least two ranks, else null (one level). */
  @Override
  public int[][] racksForGlobalAverage() {
    return everyone != null ? racks : null;
  }

  @Override
  public int[] rackOfRank() {
    return rackOfRank;
  }

  /** The reshuffle number for in-rack steps, -1 - step for cross-rack steps. */
  @Override
  long keyOf(long step) {
    return isCrossRackStep(step) ? -1 - step : step / shufflePeriod;
  }

  @Override
  int[][] groupsOf(long key, long step) {
    int[][] groups = key < 0 ? crossRackGroups(step) : inRackGroups(key);
    Arrays.sort(groups, (a, b) -> Integer.compare(a[0], b[0]));
    return groups;
  }

  private int[][] inRackGroups(long reshuffle) {
    List<int[]> groups = new ArrayList<>();
    for (int r = 0; r < racks.length; r++) {
      int[] order = RandomSchedule.shuffled(racks[r],
          RandomSchedule.mix64(seed ^ reshuffle * RandomSchedule.GOLDEN_GAMMA) + r);
      groups.addAll(Arrays.asList(Partitions.cut(order, Math.min(groupSize, order.length))));
    }
    return groups.toArray(new int[0][]);
  }

  private int[][] crossRackGroups(long step) {
    if (everyone != null) {
      return everyone;
    }
    int m = Integer.MAX_VALUE;
    for (int[] rack : racks) {
      m = Math.min(m, rack.length);
    }
    List<List<Integer>> groups = new ArrayList<>();
    for (int j = 0; j < m; j++) {
      groups.add(new ArrayList<>());
    }
    for (int r = 0; r < racks.length; r++) {
      int[] order = RandomSchedule.shuffled(racks[r],
          RandomSchedule.mix64(seed ^ CROSS_SALT ^ step * RandomSchedule.GOLDEN_GAMMA) + r);
      for (int j = 0; j < order.length; j++) {
        groups.get(j % m).add(order[j]);
      }
    }
    return groups.stream().map(g -> g.stream().mapToInt(Integer::intValue).sorted().toArray())
        .toArray(int[][]::new);
  }
}
