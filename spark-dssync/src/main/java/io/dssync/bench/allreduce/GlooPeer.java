package io.dssync.bench.allreduce;

import io.dssync.launch.ByteSize;
import io.dssync.bench.PythonPeer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code --peer gloo} of {@code dssync bench allreduce}: PyTorch's Gloo all-reduce with the same
 * plan (N processes on 127.0.0.1, the same consecutive groups running at once, the same sizes,
 * warm-up and timed iterations; each op followed by a division by g, since ours averages). Its
 * per-rank intervals go through the same {@link AllReduceRow} arithmetic as ours.
 */
final class GlooPeer {
  static final String SCRIPT = "gloo_allreduce.py";

  private GlooPeer() {}

  /** Runs the plan over Gloo; rows carry no wait/transfer/CPU split (NaN) and ours' raw TCP figure. */
  static List<AllReduceRow> measure(PythonPeer python, AllReducePlan plan, double rawTcpMBps) {
    List<String> args = List.of(String.valueOf(plan.workers()),
        plan.sizes().stream().map(String::valueOf).collect(Collectors.joining(",")),
        plan.groupSizes().stream().map(String::valueOf).collect(Collectors.joining(",")),
        plan.sizes().stream().map(b -> String.valueOf(plan.warmupOps(b))).collect(Collectors.joining(",")),
        String.valueOf(plan.iterations()), String.valueOf(PythonPeer.freePort()),
        String.valueOf(Math.max(1, plan.timeoutMs() / 1000)), ".");
    List<String> lines = python.run(SCRIPT, args, 60 + plan.timeoutMs() / 1000 * plan.cells().size());
    return rows(plan, lines, rawTcpMBps);
  }

  /** Reads the script's {@code CELL index rank ms,ms,...} lines into rows (separate from the process: testable). */
  static List<AllReduceRow> rows(AllReducePlan plan, List<String> lines, double rawTcpMBps) {
    int cells = plan.cells().size();
    double[][][] intervals = new double[plan.workers()][cells][];
    for (String line : lines) {
      if (!line.startsWith("CELL ")) {
        continue;
      }
      String[] f = line.trim().split(" ");
      int cell = Integer.parseInt(f[1]);
      int rank = Integer.parseInt(f[2]);
      String[] ms = f[3].split(",");
      double[] times = new double[ms.length];
      for (int i = 0; i < ms.length; i++) {
        times[i] = Double.parseDouble(ms[i]);
      }
      intervals[rank][cell] = times;
    }
    List<AllReduceWorkerResult> ranks = new ArrayList<>();
    for (int r = 0; r < plan.workers(); r++) {
      for (AllReducePlan.Cell cell : plan.cells()) {
        boolean member = plan.groupOf(r, cell.groupSize()) != null;
        if (member != (intervals[r][cell.index()] != null)) {
          throw new IllegalStateException("the gloo peer " + (member ? "did not report" : "reported") + " rank " + r
              + " in cell " + cell.index() + " (" + ByteSize.label(cell.bytes()) + ", g=" + cell.groupSize() + ")");
        }
      }
      ranks.add(new AllReduceWorkerResult(r, "gloo-" + r, "127.0.0.1", r == 1 ? rawTcpMBps : Double.NaN, Double.NaN,
          intervals[r], new long[cells], new long[cells], new long[cells],
          plan.cells().stream().mapToInt(c -> plan.warmupOps(c.bytes())).toArray()));
    }
    return AllReduceRow.from(plan, ranks);
  }
}
