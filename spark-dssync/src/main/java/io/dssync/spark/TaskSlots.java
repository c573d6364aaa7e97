package io.dssync.spark;

import org.apache.spark.SparkContext;

/**
 * How many tasks the cluster can run at once. Spark exposes this only through scheduler
 * internals ({@code private[spark]} in Scala), which stay in this package.
 */
public final class TaskSlots {
  private TaskSlots() {}

  /** Concurrent task slots of the default resource profile (executor cores / spark.task.cpus). */
  public static int concurrent(SparkContext sc) {
    return sc.maxNumConcurrentTasks(sc.resourceProfileManager().defaultResourceProfile());
  }
}
