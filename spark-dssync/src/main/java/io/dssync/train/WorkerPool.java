package io.dssync.train;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.Errors;
import io.dssync.schedule.SchedulePlan;
import io.dssync.spark.TaskSlots;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workers the next stage runs with: N (--workers) normally. With --min-workers M < N the pool
 * is elastic: when executors are lost and no replacement offers a slot within --slot-wait-ms, the
 * next attempt of the stage runs with the N' >= M slots that exist (data re-sharded into N'
 * shards, schedule rebuilt for N'), and at every later stage boundary it grows back towards N as
 * slots return. Stages always restart from the driver's consensus, so no step is lost or counted
 * twice; the step count, learning-rate schedule and per-worker batch stay those of the N-worker run.
 */
final class WorkerPool implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerPool.class);

  /** The cluster's task slots; the Spark one in training, a fake in unit tests. */
  interface Slots {
    int available();

    /** Waits until {@code n} slots exist or {@code deadline} passes; the slots there are then. */
    int awaitAtMost(int n, Duration deadline);

    /** Waits for {@code n} slots and fails with the error that names the fix when they do not come. */
    void await(int n, Duration deadline);

    static Slots of(SparkContext sc) {
      return new Slots() {
        @Override
        public int available() {
          return TaskSlots.concurrent(sc);
        }

        @Override
        public int awaitAtMost(int n, Duration deadline) {
          return ClusterSlots.awaitAtMost(sc, n, deadline);
        }

        @Override
        public void await(int n, Duration deadline) {
          ClusterSlots.await(sc, n, deadline);
        }
      };
    }
  }

  private final Slots slots;
  private final int target;
  private final int minimum;
  private final Duration slotWait;
  private final IntFunction<JavaRDD<LabeledArrays>> sharding;
  private final IntFunction<SchedulePlan> planning;
  private final Map<Integer, JavaRDD<LabeledArrays>> shards = new HashMap<>();
  private int size;
  private SchedulePlan plan;

  /**
   * @param sharding the training data cut into n shards (called at most once per n)
   * @param planning the schedule plan for n workers
   */
  WorkerPool(Slots slots, int target, int minimum, Duration slotWait,
      IntFunction<JavaRDD<LabeledArrays>> sharding, IntFunction<SchedulePlan> planning) {
    this.slots = slots;
    this.target = target;
    this.minimum = minimum;
    this.slotWait = slotWait;
    this.sharding = sharding;
    this.planning = planning;
    resize(target);
  }

  int size() {
    return size;
  }

  int target() {
    return target;
  }

  JavaRDD<LabeledArrays> shards() {
    return shards.computeIfAbsent(size, sharding::apply);
  }

  SchedulePlan plan() {
    return plan;
  }

  /** Replaces the plan for the current size (the auto schedule re-plans between stages). */
  void replan() {
    plan = planning.apply(size);
  }

  boolean isElastic() {
    return minimum < target;
  }

  /**
   * At a stage boundary: when executors were lost since the last stage, waits for them like after a
   * failed attempt (a barrier stage submitted without its slots would wait for them forever); when
   * the pool shrank and slots have returned, grows back (no waiting).
   */
  void fitToSlots(long step) {
    int available = slots.available();
    if (available < size) {
      awaitSlotsAfterFailure(step);
    } else if (size < target && Math.min(target, available) > size) {
      int grown = Math.min(target, available);
      LOG.warn("dssync elastic: {} task slots are back; growing from {} to {} of {} workers at step {}",
          available, size, grown, target, step);
      resize(grown);
    }
  }

  /** Task slots the cluster offers now. */
  int availableSlots() {
    return slots.available();
  }

  /**
   * After a failed attempt (or slots lost between stages): waits up to --slot-wait-ms for the current size's slots
   * (a lost executor is normally replaced). If they do not come back and the pool is elastic, shrinks to
   * the slots that exist when at least M; otherwise fails naming the numbers.
   */
  void awaitSlotsAfterFailure(long step) {
    if (!isElastic()) {
      slots.await(size, slotWait);
      return;
    }
    int offered = slots.awaitAtMost(size, slotWait);
    if (offered >= size) {
      return;
    }
    if (offered < minimum) {
      String minWorkers = TrainerConfig.MIN_WORKERS.flag();
      throw Errors.invalidSetting(minWorkers, minimum, "after losing executors the cluster offers only "
          + offered + " task slots within " + slotWait.toMillis() + " ms", "Add executors, raise "
          + TrainerConfig.SLOT_WAIT_MS.flag() + ", or lower " + minWorkers + " to " + Math.max(1, offered) + ".");
    }
    LOG.warn("dssync elastic: no replacement offered a slot within {} ms; continuing with {} of {} workers"
        + " from step {} (data re-sharded, schedule rebuilt for {})", slotWait.toMillis(), offered, target, step,
        offered);
    resize(offered);
  }

  private void resize(int n) {
    size = n;
    plan = planning.apply(n);
  }

  @Override
  public void close() {
    shards.values().forEach(rdd -> rdd.unpersist(false));
    shards.clear();
  }
}
