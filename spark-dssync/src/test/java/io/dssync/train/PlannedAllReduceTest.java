package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.CrossRackPrecision;
import io.dssync.collective.HostOrder;
import io.dssync.schedule.AutoPlanner;
import io.dssync.schedule.LinkMeasurements;
import io.dssync.schedule.RingRule;
import io.dssync.schedule.ScheduleKind;
import io.dssync.schedule.ScheduleSpec;
import io.dssync.schedule.TestbedLinks;
import org.junit.jupiter.api.Test;

/** The trainer's all-reduce as the auto planner prices it. */
class PlannedAllReduceTest {
  private static final long MODEL_BYTES = 1_700_000;
  private static final ScheduleSpec AUTO_OF_SIX = new ScheduleSpec(ScheduleKind.AUTO, 6, 2, 1, 0, 42);

  @Test
  void everyAlgorithmBecomesTheRuleOfItsName() {
    for (AllReduceAlgorithm algorithm : AllReduceAlgorithm.values()) {
      assertEquals(algorithm.label(), PlannedAllReduce.ringRule(algorithm).label());
    }
  }

  /** Spark placed the ranks round the racks (rank 0 in rack 1, rank 1 in rack 2, ...): rings still go by host. */
  @Test
  void thePlannerPricesRingsInTheCollectivesHostOrder() {
    LinkMeasurements roundTheRacks = TestbedLinks.permuted(TestbedLinks.of(3, 2, 120, 12),
        new int[] {0, 2, 4, 1, 3, 5});
    AutoPlanner.Plan planned = PlannedAllReduce.plan(roundTheRacks, AUTO_OF_SIX, MODEL_BYTES, 160, 8,
        AllReduceAlgorithm.AUTO, CrossRackPrecision.FP32);
    AutoPlanner.Plan byHost = AutoPlanner.plan(roundTheRacks, AUTO_OF_SIX, MODEL_BYTES, 160, 8, RingRule.AUTO,
        HostOrder.byHost(roundTheRacks.hosts()));
    AutoPlanner.Plan byRank = AutoPlanner.plan(roundTheRacks, AUTO_OF_SIX, MODEL_BYTES, 160, 8, RingRule.AUTO,
        TestbedLinks.inRankOrder(6));
    assertEquals(byHost.candidates(), planned.candidates());
    assertTrue(full(planned).syncMs() < full(byRank).syncMs(), "in rank order every hop would cross racks");
  }

  private static AutoPlanner.Candidate full(AutoPlanner.Plan plan) {
    return plan.candidates().stream().filter(c -> c.kind() == ScheduleKind.FULL).findFirst().orElseThrow();
  }
}
