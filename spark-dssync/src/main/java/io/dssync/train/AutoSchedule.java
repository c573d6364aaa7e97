package io.dssync.train;

import io.dssync.schedule.AutoPlanner;
import io.dssync.schedule.LinkMeasurements;
import io.dssync.schedule.RackLayout;
import io.dssync.schedule.ScheduleKind;
import io.dssync.schedule.SchedulePlan;
import io.dssync.schedule.ScheduleSpec;
import io.dssync.schedule.Schedules;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's side of {@code --schedule auto}. The first stage (and every R-th after it,
 * --replan-every) probes the links at its start ({@link LinkProbe}); after the first probe the
 * {@link AutoPlanner} chooses g, the cross-rack period and the racks from the measurements and the
 * stage's compute time, and after a later probe it plans again when the median bandwidth between
 * (or inside) the plan's racks changed more than 2x since the measurements the plan came from, or
 * when the executors now run on other hosts. Until the first plan
 * (and while an elastic pool runs with another N than was measured) it runs random g = 2.
 */
final class AutoSchedule {
  private static final Logger LOG = LoggerFactory.getLogger(AutoSchedule.class);
  /** A link must change by more than this factor to re-plan. */
  static final double REPLAN_FACTOR = 2;

  private final ScheduleSpec base;
  private final int replanEvery;
  private AutoPlanner.Plan plan;

  AutoSchedule(ScheduleSpec base, int replanEvery) {
    this.base = base;
    this.replanEvery = replanEvery;
  }

  boolean probesAt(int stage, int firstStage) {
    return stage == firstStage || replanEvery > 0 && (stage - firstStage) % replanEvery == 0;
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

  /** Whether both probes saw the same set of hosts (so the plan's racks still place every rank). */
  private static boolean sameHosts(LinkMeasurements a, LinkMeasurements b) {
    return new java.util.HashSet<>(List.of(a.hosts())).equals(new java.util.HashSet<>(List.of(b.hosts())));
  }

  /**
   * After a stage that probed: plans (first time) or re-plans (a link changed more than 2x).
   * Returns true when the plan changed, so the pool must pick it up.
   */
  boolean update(List<WorkerResult> results, double computeMsPerStep, long stateBytes, double stageSeconds,
      long step) {
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
    LinkMeasurements measured = new LinkMeasurements(hosts, latency, bandwidth);
    LOG.warn(String.format(Locale.ROOT, "dssync auto: probe at step %d took %.0f ms (%.1f%% of the stage's %.1f s);"
        + " measured %s", step, probeMs, 100 * probeMs / 1e3 / stageSeconds, stageSeconds, measured.describe()));
    String why;
    if (plan == null || plan.spec().workers() != n) {
      why = "first plan";
    } else {
      LinkMeasurements.Change change = sameHosts(measured, plan.measured())
          ? measured.largestChangeSince(plan.measured(), plan.racks()) : null;
      if (change != null && change.size() <= REPLAN_FACTOR) {
        LOG.warn("dssync auto: links within {}x of the plan's measurements (largest change: {}); keeping {}",
            REPLAN_FACTOR, change, plan.chosen().label());
        return false;
      }
      why = change == null ? "re-plan: the executors moved to other hosts" : "re-plan: " + change;
    }
    AutoPlanner.Plan next = AutoPlanner.plan(measured, base.withWorkers(n), stateBytes, computeMsPerStep);
    LOG.warn(String.format(Locale.ROOT, "dssync auto: %s at step %d (compute %.0f ms/step, model %.2f MB): %s",
        why, step, computeMsPerStep, stateBytes / 1e6, next.describe()));
    plan = next;
    return true;
  }
}
