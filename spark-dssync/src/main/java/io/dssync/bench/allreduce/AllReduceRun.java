package io.dssync.bench.allreduce;

import java.util.List;

/** What one allreduce stage measured: the table rows and the raw TCP probes before and after them. */
record AllReduceRun(List<AllReduceRow> rows, double rawBeforeMBps, double rawAfterMBps) {
  static AllReduceRun from(AllReducePlan plan, List<AllReduceWorkerResult> ranks) {
    double before = ranks.stream().mapToDouble(AllReduceWorkerResult::rawTcpMBps).filter(Double::isFinite)
        .max().orElse(Double.NaN);
    double after = ranks.stream().mapToDouble(AllReduceWorkerResult::rawTcpAfterMBps).filter(Double::isFinite)
        .max().orElse(Double.NaN);
    return new AllReduceRun(AllReduceRow.from(plan, ranks), before, after);
  }
}
