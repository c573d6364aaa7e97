package io.dssync.bench.allreduce;

import java.util.List;

/**
 * What one allreduce stage measured: the table rows, the raw TCP probes before and after them, the
 * warm-up ops each cell ran and each rank's host (both null when not recorded).
 */
record AllReduceRun(List<AllReduceRow> rows, double rawBeforeMBps, double rawAfterMBps, int[] warmupOps,
    String[] hosts) {
  AllReduceRun(List<AllReduceRow> rows, double rawBeforeMBps, double rawAfterMBps) {
    this(rows, rawBeforeMBps, rawAfterMBps, null, null);
  }

  static AllReduceRun from(AllReducePlan plan, List<AllReduceWorkerResult> ranks) {
    double before = ranks.stream().mapToDouble(AllReduceWorkerResult::rawTcpMBps).filter(Double::isFinite)
        .max().orElse(Double.NaN);
    double after = ranks.stream().mapToDouble(AllReduceWorkerResult::rawTcpAfterMBps).filter(Double::isFinite)
        .max().orElse(Double.NaN);
    int[] warmups = new int[plan.cells().size()];
    for (AllReduceWorkerResult r : ranks) {
      for (int c = 0; c < warmups.length; c++) {
        warmups[c] = Math.max(warmups[c], r.warmupOps()[c]);
      }
    }
    String[] hosts = new String[plan.workers()];
    ranks.forEach(r -> hosts[r.rank()] = r.host());
    return new AllReduceRun(AllReduceRow.from(plan, ranks), before, after, warmups, hosts);
  }
}
