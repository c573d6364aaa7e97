package io.dssync.train;

import io.dssync.replica.Evaluation;
import java.util.ArrayList;
import java.util.List;

/** Folds the workers' per-step records of one stage into {@link StageMetrics}. */
final class StageSummaries {
  private StageSummaries() {}

  /** Per-step means over the workers, in step order. */
  static List<StepMetrics> steps(StageWork work, List<WorkerResult> results) {
    List<StepMetrics> out = new ArrayList<>(work.steps());
    double n = Math.max(1, results.size());
    for (int i = 0; i < work.steps(); i++) {
      double loss = 0, compute = 0, sync = 0, wait = 0, transfer = 0, bytes = 0;
      for (WorkerResult r : results) {
        loss += r.loss()[i];
        compute += r.computeMs()[i];
        sync += r.syncMs()[i];
        wait += r.waitMs()[i];
        transfer += r.transferMs()[i];
        bytes += r.bytesSent()[i];
      }
      out.add(new StepMetrics(work.firstStep() + i, loss / n, compute / n, sync / n, wait / n, transfer / n,
          bytes / n));
    }
    return out;
  }

  static StageMetrics summarize(StageWork work, List<WorkerResult> results, double seconds, double epoch,
      long samplesPerStep, Evaluation eval) {
    double loss = 0, compute = 0, sync = 0, wait = 0, transfer = 0, bytes = 0, distance = 0;
    long cells = 0;
    for (WorkerResult r : results) {
      for (int i = 0; i < r.loss().length; i++) {
        loss += r.loss()[i];
        compute += r.computeMs()[i];
        sync += r.syncMs()[i];
        wait += r.waitMs()[i];
        transfer += r.transferMs()[i];
        bytes += r.bytesSent()[i];
        cells++;
      }
      distance += r.consensusDistance();
    }
    double c = Math.max(1, cells);
    return new StageMetrics(work.stage(), work.firstStep(), work.endStep(), epoch, seconds,
        samplesPerStep * work.steps() / seconds, loss / c,
        eval == null ? Double.NaN : eval.loss(), eval == null ? Double.NaN : eval.accuracy(),
        compute / c, sync / c, wait / c, transfer / c, bytes / c, distance / Math.max(1, results.size()));
  }
}
