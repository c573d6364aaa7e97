package io.dssync.schedule;

import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * Chooses the schedule for {@code --schedule auto} from measured links (pure: no Spark).
 *
 * <p>Racks are the clusters of {@link LinkMeasurements#racks()}. Candidates: full; random with
 * g = 2, 4, 8, ... below N; and with two or more racks, topology with g = 2, 4, ... up to the
 * largest rack and cross-rack period C in {1, 2, 4, 8}. Each candidate is judged as the worker loop
 * runs it in stages of K steps: the last step of a stage does not average in its groups, since the
 * stage-end average of all ranks (outside the step times) stands in for it. For each candidate, over
 * 48 steps of its real groups, a step is predicted to take compute + sync (none on a stage's last
 * step), where sync is our group all-reduce's two phases over the measured links
 * ({@link AllReduceCost}: per-pair latency and bandwidth, a cross-rack chunk no faster than its
 * rack's uplink; a group exchanges directly or, where the trainer's {@link RingRule} says so, by default
 * for three or more members on more than one host, by a ring in host order, each phase as long as
 * its slowest group or its busiest uplink); a two-level step costs an in-rack all-reduce plus one
 * across racks on 1/k of the state ({@link #syncMs}). Under halves across racks (the trainer's
 * {@code --cross-rack-precision fp16}) a group whose members sit in more than one rack, the level
 * across racks included, is priced as the trainer runs it then: the direct exchange of half the
 * bytes. The consensus simulation gives each candidate's steps until the replicas' spread falls
 * 1,000-fold (time to consensus = those steps x the mean step time) and its drift: the spread
 * replicas keep while every step also moves each of them randomly, as training does
 * ({@link ConsensusSimulation#steadySpread}), with the average of all ranks that ends every stage.
 *
 * <p>Full reaches consensus in one step but pays the slowest links every step, while training
 * needs one step per step whatever the mixing; and a schedule that reaches consensus quickly but
 * only on rare cross-rack steps lets racks drift apart in between (the topology g = 2, C = 4 run on
 * the two-rack testbed lost 2.65 points against full). So auto takes the candidate with the lowest
 * predicted step time among those that drift no more than the DS-Sync default, random g = 2,
 * breaking ties by time to consensus. Every candidate's numbers are kept for the log.
 */
public final class AutoPlanner {
  static final int[] CROSS_PERIODS = {1, 2, 4, 8};
  static final int WINDOW = 48;
  /** Steps of the drift simulation: enough for its mean to settle within a few percent. */
  static final int DRIFT_STEPS = 960;

  private AutoPlanner() {}

  /** The predicted sync time of one step's groups when they average {@code share} of the state (1 = all). */
  @FunctionalInterface
  public interface StepSync {
    double ms(int[][] groups, double share);
  }

  /**
   * The predicted sync time of step {@code step} of {@code schedule}: its groups in one level, or
   * for a two-level step ({@link GroupSchedule#twoLevelRacksAt}) the racks over the whole state
   * (their reduce-scatter and all-gather are one in-rack all-reduce's two phases) plus the ranks
   * across racks over 1/k of it.
   */
  public static double syncMs(GroupSchedule schedule, long step, StepSync cost) {
    int[][] racks = schedule.twoLevelRacksAt(step);
    if (racks == null) {
      return cost.ms(schedule.groupsAt(step), 1);
    }
    int k = racks[0].length;
    int[][] across = new int[k][racks.length];
    for (int i = 0; i < k; i++) {
      for (int r = 0; r < racks.length; r++) {
        across[i][r] = racks[r][i];
      }
    }
    return cost.ms(racks, 1) + cost.ms(across, 1.0 / k);
  }

  /** One schedule considered, with its predictions. */
  public record Candidate(ScheduleKind kind, int groupSize, int crossRackPeriod, double stepMs, double syncMs,
      double stepsToConsensus, double drift) implements Serializable {
    public double timeToConsensusMs() {
      return stepsToConsensus * stepMs;
    }

    public String label() {
      return switch (kind) {
        case FULL -> "full";
        case TOPOLOGY -> "topology g=" + groupSize + " C=" + crossRackPeriod;
        default -> kind.cliName() + " g=" + groupSize;
      };
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%s: step %.0f ms (sync %.0f), %.1f steps / %.0f ms to consensus, drift %.2f",
          label(), stepMs, syncMs, stepsToConsensus, timeToConsensusMs(), drift);
    }
  }

  /**
   * The choice: the spec to run, its racks, every candidate, the drift allowed, the stages judged on
   * and the all-reduce the candidates were priced for (with halves across racks or not).
   */
  public record Plan(ScheduleSpec spec, RackLayout racks, Candidate chosen, List<Candidate> candidates,
      double driftBudget, int stepsPerStage, LinkMeasurements measured, RingRule allReduce,
      boolean halvesAcrossRacks) implements Serializable {
    /** What the trainer runs: the chosen spec placed on the racks by host (needs a measured plan). */
    public SchedulePlan schedulePlan() {
      return Schedules.plan(spec, racks);
    }

    public String describe() {
      StringBuilder sb = new StringBuilder();
      sb.append("chose ").append(chosen.label()).append(" (racks ").append(racks).append(")");
      sb.append("; priced for all-reduce ").append(allReduce.describe());
      if (halvesAcrossRacks) {
        sb.append(", groups across racks in halves by the direct exchange");
      }
      sb.append(String.format(Locale.ROOT, "; drift allowed %.3f (random g=2's); judged in stages of %d steps, the"
          + " last averaging all ranks; candidates: ", driftBudget, stepsPerStage));
      for (int i = 0; i < candidates.size(); i++) {
        sb.append(i == 0 ? "" : "; ").append(candidates.get(i));
      }
      return sb.toString();
    }
  }

  /**
   * @param base the run's spec (workers, shuffle period, global average period and seed are kept)
   * @param stateBytes bytes one all-reduce averages
   * @param computeMs measured compute time of one step
   * @param stepsPerStage K, the steps of a training stage (its last one averages all ranks)
   * @param allReduce which groups average by a ring (the trainer's all-reduce algorithm)
   * @param ringOrder every rank once, in the order a ring passes them. The trainer's all-reduce
   *     decides that order (by host); it is passed in rather than worked out again here, so that one
   *     rule, in the all-reduce's package, which this one does not import, is the only one
   */
  public static Plan plan(LinkMeasurements links, ScheduleSpec base, long stateBytes, double computeMs,
      int stepsPerStage, RingRule allReduce, int[] ringOrder) {
    return plan(links, base, stateBytes, computeMs, stepsPerStage, allReduce, false, ringOrder);
  }

  /**
   * As above; with {@code halvesAcrossRacks} (the trainer's {@code --cross-rack-precision fp16})
   * every group whose members sit in more than one of the measured racks is priced as the trainer
   * averages it then: halves, by the direct exchange.
   */
  public static Plan plan(LinkMeasurements links, ScheduleSpec base, long stateBytes, double computeMs,
      int stepsPerStage, RingRule allReduce, boolean halvesAcrossRacks, int[] ringOrder) {
    RackLayout layout = links.racks();
    int[] rackOfRank = layout.rackOfRank(links.hosts());
    StepCost cost = new StepCost(links, rackOfRank, stateBytes, allReduce, halvesAcrossRacks, ringOrder);
    return choose(base, rackOfRank, layout, cost::syncMs, computeMs, stepsPerStage, links, allReduce,
        halvesAcrossRacks);
  }

  /**
   * The choice for ranks in racks {@code rackOfRank} whose step's sync time {@code syncMs} predicts
   * from its groups, priced for {@code allReduce} (with halves across racks or not);
   * {@code dssync bench simulate} calls it with its calibrated cost model.
   */
  public static Plan choose(ScheduleSpec base, int[] rackOfRank, RackLayout layout, StepSync syncMs,
      double computeMs, int stepsPerStage, LinkMeasurements measured, RingRule allReduce, boolean halvesAcrossRacks) {
    if (stepsPerStage < 1) {
      throw Errors.invalidFlag("stepsPerStage", stepsPerStage, "a stage has at least 1 step",
          "Pass the trainer's steps per stage.");
    }
    int n = rackOfRank.length;
    int[][] rackMembers = TopologySchedule.racksOf(rackOfRank);
    int largestRack = 0;
    for (int[] rack : rackMembers) {
      largestRack = Math.max(largestRack, rack.length);
    }
    List<ScheduleSpec> specs = new ArrayList<>();
    specs.add(ScheduleSpec.of(ScheduleKind.FULL, n, n, 1, 0, base.seed()));
    for (int g = 2; g < n; g *= 2) {
      specs.add(spec(base, ScheduleKind.RANDOM, g, 1));
    }
    if (rackMembers.length >= 2) {
      for (int g = 2; g <= largestRack; g *= 2) {
        for (int c : CROSS_PERIODS) {
          specs.add(spec(base, ScheduleKind.TOPOLOGY, g, c));
        }
      }
    }
    List<Candidate> candidates = new ArrayList<>();
    for (ScheduleSpec s : specs) {
      candidates.add(evaluate(s, rackOfRank, syncMs, computeMs, stepsPerStage));
    }
    // With N <= 2 there is no random g = 2 below N; full (no drift) is then the yardstick.
    double budget = candidates.stream().filter(c -> c.kind() == ScheduleKind.RANDOM && c.groupSize() == 2)
        .mapToDouble(Candidate::drift).findFirst().orElse(0);
    double limit = budget * (1 + 1e-9);
    Candidate chosen = candidates.stream().filter(c -> c.drift() <= limit)
        .min(Comparator.comparingDouble(Candidate::stepMs).thenComparingDouble(Candidate::timeToConsensusMs))
        .orElse(candidates.get(0));
    ScheduleSpec spec = chosen.kind() == ScheduleKind.FULL
        ? ScheduleSpec.of(ScheduleKind.FULL, n, n, base.shufflePeriod(), base.globalAveragePeriod(), base.seed())
        : spec(base, chosen.kind(), chosen.groupSize(), chosen.crossRackPeriod());
    return new Plan(spec, layout, chosen, candidates, budget, stepsPerStage, measured, allReduce,
        halvesAcrossRacks);
  }

  private static ScheduleSpec spec(ScheduleSpec base, ScheduleKind kind, int g, int c) {
    return new ScheduleSpec(kind, base.workers(), g, base.shufflePeriod(), base.globalAveragePeriod(), base.seed(), c);
  }

  private static Candidate evaluate(ScheduleSpec spec, int[] rackOfRank, StepSync syncMs,
      double computeMs, int stepsPerStage) {
    GroupSchedule schedule = spec.kind() == ScheduleKind.TOPOLOGY
        ? Schedules.topology(spec, rackOfRank)
        : Schedules.create(spec);
    double sync = meanSyncMs(schedule, syncMs, stepsPerStage);
    // As trained: every stage ends in an average of all ranks (two-level where the schedule's racks allow).
    GroupSchedule staged = new WithGlobalAverage(schedule, stepsPerStage);
    double steps = ConsensusSimulation.run(staged, 8, 3, 8, 64, spec.seed()).stepsToConsensus();
    double drift = ConsensusSimulation.steadySpread(staged, 8, 16, DRIFT_STEPS, spec.seed());
    return new Candidate(spec.kind(), spec.groupSize(), spec.crossRackPeriod(), computeMs + sync, sync, steps,
        drift);
  }

  /**
   * Mean sync per step over {@link #WINDOW} steps, a stage's last step counting as none (the worker
   * loop skips its group average): the mean of the window's other steps, times (K - 1) / K for
   * stages of K steps, so it holds for a stage longer than the window too.
   */
  static double meanSyncMs(GroupSchedule schedule, StepSync syncMs, int stepsPerStage) {
    IntPredicate averages = t -> (t + 1) % stepsPerStage != 0;
    long counted = IntStream.range(0, WINDOW).filter(averages).count();
    return counted == 0 ? 0
        : syncSumMs(schedule, syncMs, WINDOW, averages) / counted * (stepsPerStage - 1.0) / stepsPerStage;
  }

  /**
   * The predicted sync time summed over the steps 0 .. {@code window} - 1 that {@code averages}
   * accepts. A step whose groups are the very arrays of the step before (schedules hand them back
   * while the groups stay the same) reuses its time.
   */
  public static double syncSumMs(GroupSchedule schedule, StepSync syncMs, int window, IntPredicate averages) {
    double sum = 0;
    int[][] lastGroups = null;
    int[][] lastRacks = null;
    double lastMs = 0;
    for (int t = 0; t < window; t++) {
      if (!averages.test(t)) {
        continue;
      }
      int[][] groups = schedule.groupsAt(t);
      int[][] racks = schedule.twoLevelRacksAt(t);
      if (groups != lastGroups || racks != lastRacks) {
        lastMs = syncMs(schedule, t, syncMs);
        lastGroups = groups;
        lastRacks = racks;
      }
      sum += lastMs;
    }
    return sum;
  }

  /**
   * Predicted sync time of one step's groups over the measured links ({@link AllReduceCost}): a
   * chunk's hop takes the pair's latency and bandwidth as measured, a cross-rack hop its rack's
   * whole uplink where the probe read the pair slower (it measured the pair while others shared the
   * uplink; alone, a flow gets it whole, and the busiest-uplink bound shares it among the flows that
   * leave the rack together), and rings pass the ranks in {@code ringOrder}.
   */
  static final class StepCost implements AllReduceCost.Network {
    private final LinkMeasurements links;
    private final int[] rackOfRank;
    private final double[] uplinkMBps;
    private final double megabytes;
    private final RingRule allReduce;
    private final boolean halvesAcrossRacks;
    /** Each rank's place in the ring order. */
    private final int[] ringPosition;

    StepCost(LinkMeasurements links, int[] rackOfRank, long stateBytes, RingRule allReduce, boolean halvesAcrossRacks,
        int[] ringOrder) {
      this.links = links;
      this.rackOfRank = rackOfRank;
      this.uplinkMBps = links.uplinkMBps(rackOfRank);
      this.megabytes = stateBytes / 1e6;
      this.allReduce = allReduce;
      this.halvesAcrossRacks = halvesAcrossRacks;
      this.ringPosition = positions(ringOrder, links.workers());
    }

    private static int[] positions(int[] ringOrder, int workers) {
      if (ringOrder.length != workers) {
        throw DataErrors.lengthMismatch("ring order (ranks)", workers, ringOrder.length);
      }
      int[] position = new int[workers];
      Arrays.fill(position, -1);
      for (int q = 0; q < workers; q++) {
        int rank = ringOrder[q];
        if (rank < 0 || rank >= workers || position[rank] >= 0) {
          throw Errors.invalidSetting("ring order", Arrays.toString(ringOrder), "lists every rank 0.."
              + (workers - 1) + " once", "Pass the ranks in the order the all-reduce's ring passes them.");
        }
        position[rank] = q;
      }
      return position;
    }

    /** Both phases of {@code groups}, moving {@code share} of the state (1 = all). */
    double syncMs(int[][] groups, double share) {
      return AllReduceCost.syncMs(this, allReduce, halvesAcrossRacks, groups, megabytes * share);
    }

    @Override
    public double hopMs(int from, int to, double chunkMB) {
      double bw = links.bandwidthMBps()[to][from];
      if (rackOfRank[from] != rackOfRank[to]) {
        bw = Math.max(bw, uplinkMBps[rackOfRank[from]]);
      }
      return links.latencyMs()[to][from] + chunkMB / bw * 1e3;
    }

    @Override
    public int rackOf(int rank) {
      return rackOfRank[rank];
    }

    @Override
    public int racks() {
      return uplinkMBps.length;
    }

    @Override
    public double uplinkMs(int rack, double megabytes) {
      return megabytes / uplinkMBps[rack] * 1e3;
    }

    @Override
    public boolean spansHosts(int[] group) {
      String[] hosts = links.hosts();
      return Arrays.stream(group).anyMatch(r -> !hosts[r].equals(hosts[group[0]]));
    }

    @Override
    public int ringPosition(int rank) {
      return ringPosition[rank];
    }
  }
}
