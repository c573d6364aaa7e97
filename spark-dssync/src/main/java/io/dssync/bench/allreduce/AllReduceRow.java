package io.dssync.bench.allreduce;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One line of the allreduce table, in the manner of nccl-tests: the time of iteration i is the
 * largest completion interval any participating rank saw for it (the slowest group sets the
 * pace); median and min over the timed iterations; algbw = bytes / median time and busbw = algbw x
 * 2(g-1)/g (what each member's link carries, comparable across g). Bandwidths in MB/s of 1e6 bytes.
 */
public record AllReduceRow(
    int workers,
    int groupSize,
    int groupsInParallel,
    long bytes,
    int iterations,
    double timeMsMedian,
    double timeMsMin,
    double waitMsPerOp,
    double transferMsPerOp,
    double cpuMsPerOp,
    double rawTcpMBps) {

  double algbwMBps() {
    return bytes / (timeMsMedian / 1e3) / 1e6;
  }

  double busbwMBps() {
    return algbwMBps() * busFactor(groupSize);
  }

  double busbwOverRaw() {
    return busbwMBps() / rawTcpMBps;
  }

  /** The bytes each member's link carries per byte of message: 2(g-1)/g. */
  static double busFactor(int g) {
    return 2.0 * (g - 1) / g;
  }

  /** Builds the rows of every cell from all ranks' results. */
  static List<AllReduceRow> from(AllReducePlan plan, List<AllReduceWorkerResult> ranks) {
    double raw = rawTcpMBps(ranks);
    List<AllReduceRow> rows = new ArrayList<>();
    for (AllReducePlan.Cell cell : plan.cells()) {
      double[] slowest = new double[plan.iterations()];
      double wait = 0;
      double transfer = 0;
      double cpu = 0;
      int members = 0;
      for (AllReduceWorkerResult r : ranks) {
        double[] times = r.intervalsMs()[cell.index()];
        if (times == null) {
          continue;
        }
        members++;
        for (int i = 0; i < times.length; i++) {
          slowest[i] = Math.max(slowest[i], times[i]);
        }
        wait += r.waitNanos()[cell.index()] / 1e6 / plan.iterations();
        transfer += r.transferNanos()[cell.index()] / 1e6 / plan.iterations();
        cpu += r.cpuNanos()[cell.index()] / 1e6 / plan.iterations();
      }
      rows.add(new AllReduceRow(plan.workers(), cell.groupSize(), plan.workers() / cell.groupSize(),
          cell.bytes(), plan.iterations(), median(slowest), Arrays.stream(slowest).min().orElse(Double.NaN),
          wait / members, transfer / members, cpu / members, raw));
    }
    return rows;
  }

  /**
   * The raw TCP yardstick: the better of the probes before and after the cells (the link can do at
   * least that; a loaded machine only makes a probe slower).
   */
  static double rawTcpMBps(List<AllReduceWorkerResult> ranks) {
    return ranks.stream().flatMapToDouble(r -> java.util.stream.DoubleStream.of(r.rawTcpMBps(), r.rawTcpAfterMBps()))
        .filter(Double::isFinite).max().orElse(Double.NaN);
  }

  public static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
