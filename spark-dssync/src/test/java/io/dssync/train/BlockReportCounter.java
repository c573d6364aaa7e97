package io.dssync.train;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerBlockUpdated;

/**
 * Counts block-status reports that reach the driver for training blocks. Every put with
 * tellMaster=true, every upload to a peer and every fetch of a missing block shows up here, so
 * zero means the per-step path never involved the driver's block tracker.
 */
final class BlockReportCounter extends SparkListener {
  final AtomicLong trainingBlockReports = new AtomicLong();

  @Override
  public void onBlockUpdated(SparkListenerBlockUpdated event) {
    if (event.blockUpdatedInfo().blockId().name().contains("dssync")) {
      trainingBlockReports.incrementAndGet();
    }
  }
}
