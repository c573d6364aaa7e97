package io.dssync.spark;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerBlockUpdated;

/**
 * A driver-side listener that records every spark-dssync block the driver's block tracker is told
 * about. The push transport stores no blocks at all, so this stays empty; it is the guard that
 * would show a change putting the driver back on the per-step path (a put with tellMaster=true,
 * an upload to a peer and a fetch of a missing block would all show up here).
 */
public final class DriverBlockReports extends SparkListener {
  /** Name prefix any block spark-dssync stores would carry ({@code TestBlockId("dssync-...")}). */
  public static final String NAME_PREFIX = "test_dssync-";

  private final ConcurrentLinkedQueue<String> names = new ConcurrentLinkedQueue<>();

  @Override
  public void onBlockUpdated(SparkListenerBlockUpdated event) {
    String name = event.blockUpdatedInfo().blockId().name();
    if (name.startsWith(NAME_PREFIX)) {
      names.add(name);
    }
  }

  public int count() {
    return names.size();
  }

  public List<String> names() {
    return List.copyOf(names);
  }
}
