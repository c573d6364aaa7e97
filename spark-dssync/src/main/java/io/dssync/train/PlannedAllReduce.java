package io.dssync.train;

import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.CrossRackPrecision;
import io.dssync.collective.HostOrder;
import io.dssync.schedule.AutoPlanner;
import io.dssync.schedule.LinkMeasurements;
import io.dssync.schedule.RingRule;
import io.dssync.schedule.ScheduleSpec;

/**
 * The trainer's group all-reduce in the auto planner's terms. The planner ({@code schedule}) and
 * the all-reduce ({@code collective}) are peers that import neither the other, so {@code train},
 * which uses both, translates: the algorithm into the planner's {@link RingRule}, and the ring's
 * order, which {@link HostOrder} alone decides, into the order the planner prices rings in. Handing
 * the planner that order (rather than a copy of the host sort in {@code schedule}) keeps one rule.
 */
public final class PlannedAllReduce {
  private PlannedAllReduce() {}

  /** The planner's rule for {@code algorithm}: which groups average by a ring. */
  public static RingRule ringRule(AllReduceAlgorithm algorithm) {
    return switch (algorithm) {
      case AUTO -> RingRule.AUTO;
      case DIRECT -> RingRule.DIRECT;
      case RING -> RingRule.RING;
    };
  }

  /**
   * {@link AutoPlanner#plan} with candidates priced for {@code algorithm} over the measured ranks'
   * hosts, and for groups across racks in halves under {@code crossRack} fp16.
   */
  static AutoPlanner.Plan plan(LinkMeasurements measured, ScheduleSpec base, long stateBytes, double computeMs,
      int stepsPerStage, AllReduceAlgorithm algorithm, CrossRackPrecision crossRack) {
    return AutoPlanner.plan(measured, base, stateBytes, computeMs, stepsPerStage, ringRule(algorithm),
        crossRack == CrossRackPrecision.FP16, HostOrder.byHost(measured.hosts()));
  }
}
