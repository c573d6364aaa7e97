package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.schedule.ScheduleKind;
import io.dssync.schedule.ScheduleSpec;
import io.dssync.schedule.Schedules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The elastic pool's decisions, against a fake cluster whose slot count the test sets. */
class WorkerPoolTest {
  private static final Duration WAIT = Duration.ofMillis(5);

  /** A cluster with a settable number of slots; waiting does not make more appear. */
  private static final class FakeSlots implements WorkerPool.Slots {
    int slots;
    final List<Integer> waitedFor = new ArrayList<>();

    FakeSlots(int slots) {
      this.slots = slots;
    }

    @Override
    public int available() {
      return slots;
    }

    @Override
    public int awaitAtMost(int n, Duration deadline) {
      waitedFor.add(n);
      return slots;
    }

    @Override
    public void await(int n, Duration deadline) {
      waitedFor.add(n);
      if (slots < n) {
        throw new DsSyncException(io.dssync.errors.ErrorKind.CONFIG, "only " + slots + " slots for " + n);
      }
    }
  }

  private final List<Integer> planned = new ArrayList<>();

  private WorkerPool pool(FakeSlots slots, int target, int minimum) {
    return new WorkerPool(slots, target, minimum, WAIT, n -> null, n -> {
      planned.add(n);
      return Schedules.create(ScheduleSpec.of(ScheduleKind.RANDOM, 4, 2, 1, 0, 1).withWorkers(n));
    });
  }

  @Test
  void shrinksToTheSlotsLeftWhenNoReplacementComesAndGrowsBackWhenSlotsReturn() {
    FakeSlots cluster = new FakeSlots(4);
    WorkerPool pool = pool(cluster, 4, 2);
    assertEquals(4, pool.size());
    cluster.slots = 3;
    pool.awaitSlotsAfterFailure(16);
    assertEquals(List.of(4), cluster.waitedFor, "it first waits for the lost slot to be replaced");
    assertEquals(3, pool.size());
    assertEquals(3, pool.plan().workers(), "the schedule is rebuilt for 3");
    pool.fitToSlots(24);
    assertEquals(3, pool.size(), "no slot came back");
    cluster.slots = 4;
    pool.fitToSlots(32);
    assertEquals(4, pool.size());
    assertEquals(List.of(4, 3, 4), planned);
  }

  @Test
  void slotsLostBetweenStagesAreAwaitedThenTheNextStageRunsWithFewer() {
    FakeSlots cluster = new FakeSlots(4);
    WorkerPool pool = pool(cluster, 4, 2);
    pool.fitToSlots(0);
    assertEquals(List.of(), cluster.waitedFor, "nothing to wait for with every slot there");
    cluster.slots = 2;
    pool.fitToSlots(8);
    assertEquals(List.of(4), cluster.waitedFor);
    assertEquals(2, pool.size());
  }

  @Test
  void neverGrowsBeyondTheWorkersAskedFor() {
    FakeSlots cluster = new FakeSlots(4);
    WorkerPool pool = pool(cluster, 4, 1);
    cluster.slots = 2;
    pool.awaitSlotsAfterFailure(0);
    cluster.slots = 9;
    pool.fitToSlots(8);
    assertEquals(4, pool.size());
  }

  @Test
  void fewerSlotsThanTheMinimumIsAnErrorNamingTheFix() {
    FakeSlots cluster = new FakeSlots(4);
    WorkerPool pool = pool(cluster, 4, 3);
    cluster.slots = 2;
    DsSyncException e = assertThrows(DsSyncException.class, () -> pool.awaitSlotsAfterFailure(8));
    assertTrue(e.getMessage().contains("--min-workers = 3") && e.getMessage().contains("offers only 2"),
        e.getMessage());
  }

  @Test
  void withoutAMinimumALostSlotMustBeReplaced() {
    FakeSlots cluster = new FakeSlots(4);
    WorkerPool pool = pool(cluster, 4, 4);
    cluster.slots = 3;
    assertThrows(DsSyncException.class, () -> pool.awaitSlotsAfterFailure(8));
    assertEquals(4, pool.size());
  }

  @Test
  void minWorkersAboveWorkersIsRejected() {
    DsSyncException e = assertThrows(DsSyncException.class, () -> TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, 4).set(TrainerConfig.MIN_WORKERS, 5).build());
    assertTrue(e.getMessage().contains("--min-workers = 5"), e.getMessage());
    assertEquals(4, TrainerConfig.builder().set(TrainerConfig.WORKERS, 4).build().minWorkers(), "0 means off");
  }
}
