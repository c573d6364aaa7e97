package io.dssync.transport;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerBlockUpdated;

/**
 * A driver-side listener that records every training block the driver's block tracker is told
 * about. A put with tellMaster=true, an upload to a peer and a fetch of a missing block all show
 * up here, so an empty record means the per-step path never involved the driver.
 */
public final class DriverBlockReports extends SparkListener {
  private final ConcurrentLinkedQueue<String> names = new ConcurrentLinkedQueue<>();

  @Override
  public void onBlockUpdated(SparkListenerBlockUpdated event) {
    String name = event.blockUpdatedInfo().blockId().name();
    if (name.startsWith(BlockIds.NAME_PREFIX)) {
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
