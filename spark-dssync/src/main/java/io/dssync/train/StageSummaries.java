package io.dssync.train;

import io.dssync.metrics.StageMetrics;
import io.dssync.metrics.StepMetrics;
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

  /** The stage's summary: means over its per-step records, consensus distance over workers. */
  /** An evaluation of a model no stage trained (SWA's mean of a model without buffers) at step {@code step}. */
  static StageMetrics evaluationOnly(int stage, long step, double epoch, Evaluation eval, String metricName) {
    return new StageMetrics(stage, step, step, epoch, 0, 0, Double.NaN,
        eval == null ? Double.NaN : eval.loss(), eval == null ? Double.NaN : eval.accuracy(), 0, 0, 0, 0, 0, 0,
        eval == null ? metricName : eval.metricName(), eval == null ? Double.NaN : eval.metric(), Double.NaN);
  }

  static StageMetrics summarize(StageWork work, List<WorkerResult> results, double seconds, double epoch,
      long samplesPerStep, Evaluation eval) {
    List<StepMetrics> steps = steps(work, results);
    double c = Math.max(1, steps.size());
    double loss = 0, compute = 0, sync = 0, wait = 0, transfer = 0, bytes = 0;
    for (StepMetrics m : steps) {
      loss += m.loss();
      compute += m.computeMs();
      sync += m.syncMs();
      wait += m.waitMs();
      transfer += m.transferMs();
      bytes += m.bytesSent();
    }
    double distance = results.stream().mapToDouble(WorkerResult::consensusDistance).average().orElse(0);
    double stageEndMs = results.stream().mapToDouble(WorkerResult::stageEndMs).average().orElse(Double.NaN);
    return new StageMetrics(work.stage(), work.firstStep(), work.endStep(), epoch, seconds,
        samplesPerStep * work.steps() / seconds, loss / c,
        eval == null ? Double.NaN : eval.loss(), eval == null ? Double.NaN : eval.accuracy(),
        compute / c, sync / c, wait / c, transfer / c, bytes / c, distance,
        eval == null ? work.model().lossKind().metricName() : eval.metricName(),
        eval == null ? Double.NaN : eval.metric(), stageEndMs);
  }
}
