package io.dssync.bench.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dssync.schedule.ConsensusSimulation;
import io.dssync.schedule.ScheduleKind;
import org.junit.jupiter.api.Test;

class ConsensusSimulationTest {
  private static ConsensusSimulation simulate(ScheduleKind kind, int n, int g, int h, int trials) {
    return ConsensusSimulation.run(new SimulatedSchedule(kind, g, h).create(n, 3), 4, trials, 4, 100, 11);
  }

  @Test
  void randomGroupsShrinkTheSpreadByTheClosedForm() {
    int n = 64;
    int g = 4;
    ConsensusSimulation c = simulate(ScheduleKind.RANDOM, n, g, 0, 200);
    double expected = (n - g) / (double) (g * (n - 1)); // 0.238
    assertEquals(expected, c.firstStep(), 0.1 * expected);
    assertEquals(expected, c.perStep(), 0.15 * expected);
  }

  @Test
  void fullAgreesAtOnceLocalNeverAndLocalWithGlobalAtH() {
    assertEquals(0, simulate(ScheduleKind.FULL, 32, 0, 0, 2).firstStep());
    assertEquals(1, simulate(ScheduleKind.FULL, 32, 0, 0, 2).stepsToConsensus());
    ConsensusSimulation local = simulate(ScheduleKind.LOCAL, 32, 1, 0, 2);
    assertEquals(1, local.firstStep(), 1e-12);
    assertEquals(101, local.stepsToConsensus()); // not within 100 steps
    assertEquals(6, simulate(ScheduleKind.LOCAL, 32, 1, 6, 2).stepsToConsensus());
  }

  @Test
  void butterflyIsExactAfterMSteps() {
    // N = 2^5: five steps of pairs give the exact global average.
    ConsensusSimulation b = simulate(ScheduleKind.BUTTERFLY, 32, 2, 0, 3);
    assertEquals(5, b.stepsToConsensus(), 1e-12, "ratio after 4 steps is 1/31 > 1e-3, after 5 it is 0");
    assertEquals(0, simulate(ScheduleKind.BUTTERFLY, 16, 2, 0, 3).perStep(), 1e-12);
  }
}
