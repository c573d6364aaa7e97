package io.dssync.spark;

import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.spark.SparkContext;
import org.apache.spark.storage.BlockManagerId;

/**
 * The hosts where the cluster's barrier tasks can run, named as the tasks see themselves (their
 * block managers' hosts), read on the driver from Spark's block manager master.
 */
public final class ExecutorHosts {
  private ExecutorHosts() {}

  /** Hosts of the registered executors; in local mode the driver's, which runs the tasks there. */
  public static SortedSet<String> of(SparkContext sc) {
    SortedSet<String> hosts = new TreeSet<>();
    scala.collection.Iterator<BlockManagerId> ids =
        sc.env().blockManager().master().getMemoryStatus().keysIterator();
    while (ids.hasNext()) {
      BlockManagerId id = ids.next();
      if (sc.isLocal() || !id.isDriver()) {
        hosts.add(id.host());
      }
    }
    return hosts;
  }
}
