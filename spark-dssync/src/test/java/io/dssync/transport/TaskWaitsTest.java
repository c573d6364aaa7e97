package io.dssync.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The short yielding poll a reader does before it parks. */
class TaskWaitsTest {
  /** Far longer than any poll takes, so the polling tests do not depend on the machine's load. */
  private static final long LONG = 10_000_000_000L;

  @Test
  void theSpinPollsUntilTheConditionHoldsAndStopsThere() {
    AtomicInteger polls = new AtomicInteger();
    assertTrue(TaskWaits.spinBriefly(() -> polls.incrementAndGet() >= 5, LONG));
    assertEquals(5, polls.get());
  }

  @Test
  void theSpinGivesUpAfterItsBudgetWhenNothingArrives() {
    long start = System.nanoTime();
    assertFalse(TaskWaits.spinBriefly(() -> false, TaskWaits.SPIN_NANOS));
    assertTrue(System.nanoTime() - start >= TaskWaits.SPIN_NANOS);
  }

  @Test
  void aConditionAlreadyTrueReturnsAtOnce() {
    AtomicInteger polls = new AtomicInteger();
    assertTrue(TaskWaits.spinBriefly(() -> polls.incrementAndGet() > 0, LONG));
    assertEquals(1, polls.get());
  }
}
