package io.dssync.train;

import io.dssync.errors.Errors;
import io.dssync.errors.TrainingErrors;
import io.dssync.spark.TaskSlots;
import java.time.Duration;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;

/**
 * How many barrier tasks the cluster can run at once. Spark fails a barrier stage that needs more
 * slots only after several 15-second retries, so the trainer checks up front and says what to do.
 */
public final class ClusterSlots {
  private ClusterSlots() {}

  /** Barrier stages need a fixed set of executors; Spark rejects them under dynamic allocation. */
  public static void requireStaticAllocation(SparkConf conf) {
    if (conf.getBoolean("spark.dynamicAllocation.enabled", false)) {
      throw Errors.invalidSetting("spark.dynamicAllocation.enabled", true,
          "barrier training needs a fixed set of executors",
          "Set spark.dynamicAllocation.enabled=false.");
    }
  }

  /**
   * Waits until {@code workers} slots exist (executors of a fresh cluster register over a few
   * seconds), then returns; fails after {@code deadline}, or at once when the master's URL holds
   * fewer, naming both numbers and the fix.
   */
  public static void await(SparkContext sc, int workers, Duration deadline) {
    int slots = awaitAtMost(sc, workers, deadline);
    if (slots < workers) {
      throw Errors.invalidSetting(TrainerConfig.WORKERS.flag(), workers,
          "it needs " + workers + " free task slots at once but the cluster (" + sc.master() + ") offers " + slots
              + " (executor cores / spark.task.cpus = " + sc.conf().get("spark.task.cpus", "1") + ")",
          "Use " + TrainerConfig.WORKERS.flag() + " " + Math.max(1, slots) + " or fewer, or add executors or cores.");
    }
  }

  /**
   * Waits until {@code workers} slots exist or {@code deadline} passes, or at once when the master
   * cannot grow to more (its URL fixes its slots and all are there); returns the slots there are then.
   */
  public static int awaitAtMost(SparkContext sc, int workers, Duration deadline) {
    long end = System.nanoTime() + deadline.toNanos();
    int most = mostSlots(sc.master(), sc.conf().getInt("spark.task.cpus", 1));
    int slots = TaskSlots.concurrent(sc);
    while (slots < workers && slots < most && System.nanoTime() < end) {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw TrainingErrors.interrupted("while it waited for " + workers + " task slots", -1);
      }
      slots = TaskSlots.concurrent(sc);
    }
    return slots;
  }

  /**
   * The most task slots {@code master} can ever offer: fixed by the URL of a local master (its
   * threads) and of a local-cluster (its executors' cores), each slot {@code taskCpus} cores;
   * unbounded for a cluster, whose executors may still come.
   */
  static int mostSlots(String master, int taskCpus) {
    Optional<LocalMaster> local = LocalMaster.parse(master);
    if (local.isPresent()) {
      return local.get().threads() / taskCpus;
    }
    return LocalClusterMaster.parse(master).map(c -> c.executors() * (c.coresPerExecutor() / taskCpus))
        .orElse(Integer.MAX_VALUE);
  }
}
