package io.dssync.train;

import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.CrossRackPrecision;
import io.dssync.schedule.AutoPlanner;
import io.dssync.schedule.LinkMeasurements;
import io.dssync.schedule.ProbeRounds;
import io.dssync.schedule.ProbeScope;
import io.dssync.schedule.RackLayout;
import io.dssync.schedule.ReplanRule;
import io.dssync.schedule.ScheduleKind;
import io.dssync.schedule.SchedulePlan;
import io.dssync.schedule.ScheduleSpec;
import io.dssync.schedule.Schedules;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's side of {@code --schedule auto}. The first stage (and every R-th after it,
 * --replan-every) probes the links at its start ({@link LinkProbe}); right after the first probe the ranks
 * themselves have the {@link AutoPlanner} choose g, the cross-rack period and the racks from the
 * measurements and their first step's compute time ({@link FirstPlan}), and run the plan from that
 * step; the driver makes the same plan from what they report. After a later probe the driver plans
 * again as {@link ReplanRule} says: when the median bandwidth between (or inside) the plan's racks
 * differed more than 2x from the measurements the plan came from, the same way, in two consecutive
 * probes, or at once when the executors now run on other hosts. When an elastic pool runs with
 * another N than was planned, its next stage probes and its ranks plan for that N. The first probe
 * meets every pair; a later one only as many as measure each link the rule reads ({@link
 * #probeScope}), and all probes together keep within {@link #PROBE_SHARE} of the training ({@link
 * #probeBudgetMs}).
 */
final class AutoSchedule {
  private static final Logger LOG = LoggerFactory.getLogger(AutoSchedule.class);
  /** The share of the fit's training time all its probes together may take. */
  static final double PROBE_SHARE = 0.02;
  /**
   * The first probe's time per round (each rank meets one peer per round): enough for a 1 Gbit/s
   * pair to settle on 2 MiB and send it three times, and for a pair on a 100 Mbit/s uplink to grow
   * past the shaper's burst ({@link ProbeSizing} grows a short transfer whatever the budget) and
   * repeat it. Measured on the 3 x 2 testbed: at 250 ms the probe took 1,077-1,138 ms, 2.7-3.1% of a
   * 37-40 s fit; at 100 ms, 762-823 ms, 1.8-2.0% of a 42 s fit.
   */
  static final double FIRST_PROBE_MS_PER_ROUND = 100;

  private final ScheduleSpec base;
  private final int replanEvery;
  /** The fit's steps per stage, by which the planner judges candidates. */
  private final int stepsPerStage;
  /** The fit's all-reduce algorithm, for which the planner prices candidates. */
  private final AllReduceAlgorithm allReduce;
  /** The fit's precision across racks, for which it prices them too. */
  private final CrossRackPrecision crossRack;
  private AutoPlanner.Plan plan;
  private ReplanRule rule;
  /** What every probe of the fit cost so far, for the log. */
  private double probesMs;
  /**
   * Per pair of ranks, the bandwidth message size the next probe of the pair starts at: where the
   * last probe of the pair settled, made smaller after a drop ({@link #shrunkAfterDrops}); null before one.
   */
  private int[][] settledFloats;
  /** Per pair, the bandwidth (MB/s, both sides' reading) the last probe that met it read; null before one. */
  private double[][] lastMBps;
  /**
   * The last probe saw a link beyond {@link ReplanRule#FACTOR}: the next one measures every pair.
   * The probe that confirms a change is then always a full one, and the planner, which reads every
   * pair ({@link AutoPlanner}'s step cost takes a pair not measured as one that carries nothing),
   * never plans from a probe of a few rounds. It costs one full probe after each watched outlier;
   * a real change still re-plans at the second probe after it.
   */
  private boolean watching;
  /** The stage of the last probe; -1 before the first. */
  private int lastProbeStage = -1;
  /** What the last probe took per round it ran; NaN before one. */
  private double msPerRound = Double.NaN;

  AutoSchedule(ScheduleSpec base, int replanEvery, int stepsPerStage, AllReduceAlgorithm allReduce,
      CrossRackPrecision crossRack) {
    this.base = base;
    this.replanEvery = replanEvery;
    this.stepsPerStage = stepsPerStage;
    this.allReduce = allReduce;
    this.crossRack = crossRack;
  }

  /**
   * The time a probe may take, so that all the fit's probes stay within {@link #PROBE_SHARE} of its
   * training: what is left of that share ({@link #allowanceMs}), but at most the share of the R
   * stages alone (credit left by cheap earlier probes is not spent in one burst: a probe with more
   * time only grows its messages towards 4 MiB x 3, which a link's reading does not need), and at
   * least 0: each pair then sends only the four messages {@link ProbeSizing#measure} always sends
   * (two latency samples, one bandwidth message at the size the last probe settled on), one reading
   * of every link it measures. A probe whose ranks make a first plan ({@link #firstPlanSpec}: none
   * yet, or for a pool of another size), or one with no stage measured (or R = 0), gets
   * {@link #FIRST_PROBE_MS_PER_ROUND} per probe round of its {@code workers}: it meets every pair and
   * the racks come from it.
   */
  double probeBudgetMs(double lastStageSeconds, double trainedSeconds, int stagesLeft, int workers) {
    if (firstPlanSpec(workers) != null || replanEvery == 0 || !(lastStageSeconds > 0)) {
      return firstProbeBudgetMs(workers);
    }
    double untilNextProbeMs = untilNextProbeMs(lastStageSeconds, stagesLeft);
    return Math.max(0, Math.min(PROBE_SHARE * untilNextProbeMs,
        allowanceMs(lastStageSeconds, trainedSeconds, stagesLeft)));
  }

  /** The budget of a probe of every pair of {@code workers} ranks whose ranks make a first plan. */
  double firstProbeBudgetMs(int workers) {
    return FIRST_PROBE_MS_PER_ROUND * ProbeRounds.rounds(workers);
  }

  /**
   * What the probes may still take: {@link #PROBE_SHARE} of the training projected to the next
   * probe (the {@code trainedSeconds} so far plus R stages as long as the last one, or the
   * {@code stagesLeft} if fewer) less what they already took ({@link #probesMs}). A probe that
   * overran (the first, or one whose pairs' fixed messages outlast a small budget) is paid back.
   */
  private double allowanceMs(double lastStageSeconds, double trainedSeconds, int stagesLeft) {
    return PROBE_SHARE * (trainedSeconds * 1e3 + untilNextProbeMs(lastStageSeconds, stagesLeft)) - probesMs;
  }

  private double untilNextProbeMs(double lastStageSeconds, int stagesLeft) {
    return Math.min(replanEvery, Math.max(1, stagesLeft)) * lastStageSeconds * 1e3;
  }

  /**
   * Whether stage {@code stage} (of {@code stages}, run by {@code workers}) starts with a probe.
   * The fit's first stage does, and so does a stage whose elastic pool has another size than the
   * plan: its ranks plan for that size at once ({@link FirstPlan}) instead of running random g = 2
   * until a probe is due. A later probe is due R stages after the last one, never in the fit's last
   * stage (its plan could apply to no stage; on the 3 x 2 testbed that probe was 443 ms, 15% of all
   * the fit's probes), and runs at the first due stage where its expected cost ({@link
   * #expectedProbeMs}) fits what is left of the probes' share ({@link #allowanceMs}). Even at a
   * budget of 0 a probe costs its pairs' fixed messages (200-300 ms per round on the 3 x 2 testbed,
   * where several JVMs share 2 cores): run every R stages regardless, those took the fit's probes
   * to 2.4-3.2% of its training. Deferred, they keep within the share; the re-plan rule's "two
   * probes in a row" then spans more stages, as many as the share needs.
   */
  boolean probesAt(int stage, int firstStage, int stages, double lastStageSeconds, double trainedSeconds,
      int workers) {
    boolean probe = stage == firstStage || plan != null && plan.spec().workers() != workers
        || replanEvery > 0 && stage < stages - 1 && stage - lastProbeStage >= replanEvery
            && expectedProbeMs() <= allowanceMs(lastStageSeconds, trainedSeconds, stages - stage);
    if (probe) {
      lastProbeStage = stage;
    }
    return probe;
  }

  /**
   * What the next later probe should cost: the last probe's time per round times the rounds the next
   * one runs with the ranks where the plan measured them; 0 before anything was measured.
   */
  double expectedProbeMs() {
    if (plan == null || Double.isNaN(msPerRound)) {
      return 0;
    }
    return msPerRound * probeScope(plan.spec().workers()).rounds(plan.measured().hosts()).length;
  }

  /**
   * The auto spec for {@code size} workers when the next probing stage's ranks make the first plan
   * ({@link FirstPlan}): before any plan, and for an elastic pool of another size than planned; else null.
   */
  ScheduleSpec firstPlanSpec(int size) {
    return plan == null || plan.spec().workers() != size ? base.withWorkers(size) : null;
  }

  /** The schedule plan for {@code size} workers. */
  SchedulePlan planFor(int size) {
    if (plan != null && plan.spec().workers() == size) {
      return plan.schedulePlan();
    }
    ScheduleSpec spec = new ScheduleSpec(ScheduleKind.RANDOM, size, Math.min(2, size), base.shufflePeriod(),
        base.globalAveragePeriod(), base.seed(), base.crossRackPeriod());
    return Schedules.plan(spec, RackLayout.byHost());
  }

  /**
   * Where each pair's bandwidth messages start in the next probe of {@code size} workers: the size
   * the last probe settled on for that pair ({@link ProbeSizing} says why), or null (start small)
   * before the first probe or when the pool has another size now.
   */
  int[][] probeStartFloats(int size) {
    return settledFloats != null && settledFloats.length == size ? settledFloats : null;
  }

  /**
   * Which rounds the next probe of {@code size} workers runs ({@link ProbeScope}): every round before
   * the first plan, for a pool of another size than planned, and after a probe that saw a link
   * beyond the factor ({@link #watching}); else those that measure each of the plan's rack links
   * once (the tasks still run every round if the executors moved to other hosts). {@link
   * ReplanRule} reads only the medians between and inside racks, which the full probe behind the
   * plan measured over every pair, so repeating every pair each time is not needed to watch them:
   * on the 2 x 2 testbed 2 of 3 rounds, on the 3 x 2 one 2 or 3 of 5 ({@link ProbeRounds#covering});
   * at the budget floor, where the probes' fixed messages set their cost, that is a third and 40-60%
   * less time per later probe, and above it each measured pair gets a larger share of the budget.
   */
  ProbeScope probeScope(int size) {
    if (plan == null || plan.spec().workers() != size || watching) {
      return ProbeScope.full();
    }
    return ProbeScope.of(plan.racks(), plan.measured().hosts());
  }

  /** What every probe of the fit took so far (each probe counted at its slowest rank). */
  double probesMs() {
    return probesMs;
  }

  /** The plan in force, or null before the first probe. */
  AutoPlanner.Plan plan() {
    return plan;
  }

  /**
   * After a stage that probed: takes the first plan the ranks made ({@link FirstPlan}) or re-plans
   * ({@link ReplanRule}). Returns true when the plan changed, so the pool must pick it up.
   *
   * @param trainedSeconds the fit's time so far, this stage included (the probes' share of it is logged)
   * @param step the stage's end step, from which a re-plan applies
   */
  boolean update(List<WorkerResult> results, double computeMsPerStep, long stateBytes, double stageSeconds,
      double trainedSeconds, long step) {
    List<WorkerResult> byRank = results.stream().sorted(Comparator.comparingInt(WorkerResult::rank)).toList();
    if (byRank.stream().anyMatch(r -> r.links() == null)) {
      return false;
    }
    int n = byRank.size();
    String[] hosts = new String[n];
    double[][] latency = new double[n][];
    double[][] bandwidth = new double[n][];
    double probeMs = 0;
    for (int r = 0; r < n; r++) {
      LinkSample s = byRank.get(r).links();
      hosts[r] = s.host();
      latency[r] = s.latencyMs();
      bandwidth[r] = s.bandwidthMBps();
      probeMs = Math.max(probeMs, s.probeMs());
    }
    probesMs += probeMs;
    int rounds = byRank.stream().mapToInt(r -> r.links().rounds()).min().orElse(0);
    msPerRound = rounds > 0 ? probeMs / rounds : msPerRound;
    boolean partial = rounds < ProbeRounds.rounds(n);
    int[][] used = PairReadings.settled(byRank, probeStartFloats(n));
    double[][] pairMBps = PairReadings.paired(bandwidth);
    double[][] before = lastMBps != null && lastMBps.length == n ? lastMBps : null;
    // The plan's racks place the ranks only while they run where the plan measured them.
    boolean placed = plan != null && plan.spec().workers() == n
        && ReplanRule.sameHosts(plan.measured().hosts(), hosts);
    double[][] change = PairReadings.changes(before, pairMBps, placed ? plan.racks().rackOfRank(hosts) : null);
    settledFloats = PairReadings.shrunkAfterDrops(used, change);
    lastMBps = PairReadings.lastReadings(before, pairMBps, change);
    LinkMeasurements measured = new LinkMeasurements(hosts, latency, pairMBps);
    long firstStep = step - byRank.get(0).computeMs().length; // the probe ran before it
    LOG.warn(String.format(Locale.ROOT, "dssync auto: probe at step %d (%d of %d rounds) took %.0f ms (%.1f%% of"
        + " the stage's %.1f s; all probes %.0f ms, %.2f%% of the %.1f s trained), bandwidth messages %s; measured %s",
        firstStep, rounds, ProbeRounds.rounds(n), probeMs, 100 * probeMs / 1e3 / stageSeconds, stageSeconds, probesMs,
        100 * probesMs / 1e3 / trainedSeconds, trainedSeconds, PairReadings.mebibytes(used), measured.describe())
        + (Arrays.deepEquals(used, settledFloats) ? "" : String.format(Locale.ROOT, "; pairs that read more than"
            + " %.0fx slower than the probe before start the next one smaller: %s", ReplanRule.FACTOR,
            PairReadings.mebibytes(settledFloats))));
    ScheduleSpec firstSpec = firstPlanSpec(n);
    if (firstSpec != null) {
      // The ranks ran this plan from the stage's first step; the same rows give the driver the same plan.
      float[][] rows = byRank.stream().map(r -> FirstPlan.row(r.links(), r.computeMs()[0])).toArray(float[][]::new);
      adopt(FirstPlan.plan(rows, hosts, firstSpec, stateBytes, stepsPerStage, allReduce, crossRack));
      LOG.warn(String.format(Locale.ROOT, "dssync auto: first plan, made by the ranks after the probe and run from"
          + " step %d (compute %.0f ms in that step, the ranks' mean; model %.2f MB): %s", firstStep,
          plan.chosen().stepMs() - plan.chosen().syncMs(), stateBytes / 1e6, plan.describe()));
      return true;
    }
    ReplanRule.Verdict verdict = rule.observe(measured);
    watching = verdict.outcome() == ReplanRule.Outcome.WATCH;
    if (!verdict.replan()) {
      LOG.warn("dssync auto: {}; keeping {}", verdict, plan.chosen().label());
      return false;
    }
    String why = "re-plan: " + verdict;
    if (partial) {
      // Not reached: probeScope asks every round before a first plan and after a watched link, and
      // the tasks run every round when the hosts changed. Planning from the pairs not met would
      // read them as links that carry nothing, so this waits for the next probe, a full one.
      watching = true;
      LOG.warn("dssync auto: {} waits for the next probe, which measures every pair; keeping the plan", why);
      return false;
    }
    AutoPlanner.Plan next = PlannedAllReduce.plan(measured, base.withWorkers(n), stateBytes, computeMsPerStep,
        stepsPerStage, allReduce, crossRack);
    LOG.warn(String.format(Locale.ROOT, "dssync auto: %s at step %d (compute %.0f ms/step, model %.2f MB): %s",
        why, step, computeMsPerStep, stateBytes / 1e6, next.describe()));
    adopt(next);
    return true;
  }

  private void adopt(AutoPlanner.Plan next) {
    plan = next;
    rule = new ReplanRule(next.measured(), next.racks());
    watching = false;
  }
}
