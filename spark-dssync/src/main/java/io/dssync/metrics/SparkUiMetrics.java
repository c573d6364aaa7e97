package io.dssync.metrics;

import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.util.DoubleAccumulator;
import org.apache.spark.util.LongAccumulator;

/**
 * Named accumulators for the Spark UI, updated on the driver as stages finish: steps done, sync
 * milliseconds and the part of them spent waiting for peers, compute milliseconds and bytes sent
 * (summed over steps of the per-worker means). Job descriptions per stage are set by the trainer;
 * the caller's job group is never touched.
 */
public final class SparkUiMetrics implements ProgressListener {
  private final LongAccumulator steps;
  private final DoubleAccumulator syncMs;
  private final DoubleAccumulator waitMs;
  private final DoubleAccumulator computeMs;
  private final DoubleAccumulator bytesSent;

  public SparkUiMetrics(SparkContext sc) {
    steps = sc.longAccumulator("dssync steps");
    syncMs = sc.doubleAccumulator("dssync sync ms (per worker)");
    waitMs = sc.doubleAccumulator("dssync sync ms waiting for peers (per worker)");
    computeMs = sc.doubleAccumulator("dssync compute ms (per worker)");
    bytesSent = sc.doubleAccumulator("dssync bytes sent (per worker)");
  }

  @Override
  public void onStage(StageMetrics m, List<StepMetrics> stepList, int stages, long totalSteps) {
    for (StepMetrics s : stepList) {
      steps.add(1);
      syncMs.add(s.syncMs());
      waitMs.add(s.waitMs());
      computeMs.add(s.computeMs());
      bytesSent.add(s.bytesSent());
    }
  }

  public long steps() {
    return steps.value();
  }

  public double syncMs() {
    return syncMs.value();
  }

  public double waitMs() {
    return waitMs.value();
  }
}
