package io.dssync.bench.allreduce;

import io.dssync.bench.BenchTable;
import io.dssync.launch.ByteSize;
import io.dssync.bench.ResultsFolder;
import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.HostOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** Writes the allreduce results: allreduce.csv, busbw-vs-size.png and summary.md. */
public final class AllReduceReport {
  /** The target: busbw at 64 MiB at least this share of the raw TCP throughput. */
  static final double TARGET_RATIO = 0.8;
  static final long TARGET_BYTES = 64L << 20;

  public static final String[] COLUMNS = {"network", "workers", "group_size", "groups_in_parallel", "bytes", "size",
      "iterations", "time_ms_median", "time_ms_min", "algbw_MBps", "busbw_MBps", "raw_tcp_MBps",
      "busbw_over_raw", "wait_ms_per_op", "transfer_ms_per_op", "other_ms_per_op", "cpu_ms_per_op", "all_reduce"};

  private AllReduceReport() {}

  /**
   * Our rows; {@code all_reduce} names the algorithm of groups of three or more, which {@code bench
   * simulate} prices the cells with when it calibrates on them.
   */
  static BenchTable table(String network, AllReduceAlgorithm algorithm, List<AllReduceRow> rows) {
    return table("allreduce", network, algorithm.label(), rows);
  }

  static BenchTable table(String name, String network, String allReduce, List<AllReduceRow> rows) {
    BenchTable table = new BenchTable(name, COLUMNS);
    for (AllReduceRow r : rows) {
      table.add(network, r.workers(), r.groupSize(), r.groupsInParallel(), r.bytes(), ByteSize.label(r.bytes()),
          r.iterations(), r.timeMsMedian(), r.timeMsMin(), r.algbwMBps(), r.busbwMBps(), r.rawTcpMBps(),
          r.busbwOverRaw(), r.waitMsPerOp(), r.transferMsPerOp(),
          Math.max(0, r.timeMsMedian() - r.waitMsPerOp() - r.transferMsPerOp()), r.cpuMsPerOp(), allReduce);
    }
    return table;
  }

  /** The issue-10 targets against the Gloo peer, measured in the same run. */
  static final double GLOO_BUSBW_TARGET = 1.0;
  static final long GLOO_LATENCY_BYTES = 4L << 10;
  static final double GLOO_LATENCY_TARGET = 2.0;

  static final String[] PEER_COLUMNS = {"network", "workers", "group_size", "bytes", "size", "ours_ms_median",
      "peer_ms_median", "ours_over_peer_time", "ours_busbw_MBps", "peer_busbw_MBps", "ours_over_peer_busbw"};

  /**
   * Writes everything and returns the summary's path; {@code verdicts} receives one line per group
   * size, and with a peer ({@code peerRows} not null) one line per target against it.
   */
  static Path write(ResultsFolder folder, String network, AllReducePlan plan, AllReduceRun run,
      String peer, List<AllReduceRow> peerRows, List<String> verdicts) {
    List<AllReduceRow> rows = run.rows();
    double raw = rows.isEmpty() ? Double.NaN : rows.get(0).rawTcpMBps();
    folder.note(String.format(Locale.ROOT, "Network `%s`, %d workers (one barrier task each), groups of three"
            + " or more by the %s algorithm, %s warm-up"
            + " + %d timed all-reduces per point. Raw TCP between the executors of the first two ranks in host order:"
            + " **%.1f MB/s** (best of %d"
            + " one-way transfers of %s, before the all-reduces %.1f MB/s, after them %.1f MB/s; measured in this"
            + " run). MB = 1e6 bytes; busbw = algbw x 2(g-1)/g.",
        network, plan.workers(), plan.algorithm() == AllReduceAlgorithm.AUTO
            ? "auto (ring where a group spans hosts, else direct)" : plan.algorithm().label(),
        warmupText(plan, run), plan.iterations(), raw, plan.rawRepeats(),
        ByteSize.label(plan.rawBytes()), run.rawBeforeMBps(), run.rawAfterMBps()));
    if (run.hosts() != null) {
      int[] order = HostOrder.byHost(run.hosts());
      folder.note("Groups are consecutive in the order of the ranks' hosts (rank: host): "
          + java.util.Arrays.stream(order).mapToObj(r -> r + ": " + run.hosts()[r]).collect(Collectors.joining(", "))
          + ".");
    }
    folder.write(table(network, plan.algorithm(), rows), "Group all-reduce over the push transport");
    folder.chart("busbw-vs-size", chart(network, rows));
    StringBuilder verdict = new StringBuilder("## Against the target (busbw >= " + TARGET_RATIO + " x raw at "
        + ByteSize.label(TARGET_BYTES) + ")\n\n");
    for (int g : new TreeSet<>(rows.stream().map(AllReduceRow::groupSize).toList())) {
      AllReduceRow at = atTargetSize(rows, g);
      String line = String.format(Locale.ROOT, "g=%d at %s: busbw %.1f MB/s / raw %.1f MB/s = %.3f (%s %.1f)%s;"
              + " per op %.1f ms: wait %.1f, transfer %.1f, other %.1f; executor CPU %.1f ms",
          g, ByteSize.label(at.bytes()), at.busbwMBps(), at.rawTcpMBps(), at.busbwOverRaw(),
          at.busbwOverRaw() >= TARGET_RATIO ? "meets" : "misses", TARGET_RATIO,
          at.bytes() == TARGET_BYTES ? "" : " (largest size measured; " + ByteSize.label(TARGET_BYTES)
              + " not in --sizes)", at.timeMsMedian(), at.waitMsPerOp(), at.transferMsPerOp(),
          Math.max(0, at.timeMsMedian() - at.waitMsPerOp() - at.transferMsPerOp()), at.cpuMsPerOp());
      verdicts.add(line);
      verdict.append("- ").append(line).append('\n');
    }
    folder.note(verdict.toString() + "\nwait = blocked before a peer's part started arriving; transfer ="
        + " blocked while its bytes arrived, plus copying or adding it in, plus encoding and handing off what"
        + " this rank sends; other = summing its own chunk and scaling (per rank, mean over the members)."
        + " cpu = CPU time of the whole executor process per op (all threads, Netty's"
        + " included): far below the op time means the executor waited for a core, not for the network.");
    if (peerRows != null) {
      writePeer(folder, network, peer, rows, peerRows, verdicts);
    }
    return folder.finish();
  }

  /** The peer's own table, ours/peer ratios per point, and the verdicts against the targets. */
  private static void writePeer(ResultsFolder folder, String network, String peer, List<AllReduceRow> ours,
      List<AllReduceRow> theirs, List<String> verdicts) {
    folder.write(table(peer, network, peer, theirs), "The " + peer + " peer, same plan, same run"
        + " (no wait/transfer split; executor CPU not measured)");
    BenchTable ratios = new BenchTable("allreduce-vs-" + peer, PEER_COLUMNS);
    StringBuilder verdict = new StringBuilder("## Against " + peer + " (measured in this run)\n\n");
    for (int i = 0; i < ours.size(); i++) {
      AllReduceRow o = ours.get(i);
      AllReduceRow p = theirs.get(i);
      ratios.add(network, o.workers(), o.groupSize(), o.bytes(), ByteSize.label(o.bytes()), o.timeMsMedian(),
          p.timeMsMedian(), o.timeMsMedian() / p.timeMsMedian(), o.busbwMBps(), p.busbwMBps(),
          o.busbwMBps() / p.busbwMBps());
      String line = null;
      if (o.bytes() == TARGET_BYTES) {
        double ratio = o.busbwMBps() / p.busbwMBps();
        line = String.format(Locale.ROOT, "g=%d at %s: busbw ours %.1f MB/s / %s %.1f MB/s = %.2f (%s %.1f)",
            o.groupSize(), ByteSize.label(o.bytes()), o.busbwMBps(), peer, p.busbwMBps(), ratio,
            ratio >= GLOO_BUSBW_TARGET ? "meets" : "misses", GLOO_BUSBW_TARGET);
      } else if (o.bytes() == GLOO_LATENCY_BYTES && o.groupSize() == 2) {
        double ratio = o.timeMsMedian() / p.timeMsMedian();
        line = String.format(Locale.ROOT, "g=2 at %s: time ours %.2f ms / %s %.2f ms = %.2f (%s <= %.1f)",
            ByteSize.label(o.bytes()), o.timeMsMedian(), peer, p.timeMsMedian(), ratio,
            ratio <= GLOO_LATENCY_TARGET ? "meets" : "misses", GLOO_LATENCY_TARGET);
      }
      if (line != null) {
        verdicts.add(line);
        verdict.append("- ").append(line).append('\n');
      }
    }
    folder.write(ratios, "Ours against " + peer + ", point by point");
    folder.note(verdict.toString());
  }

  /** The row of group size g at 64 MiB, else at the largest size measured. */
  static AllReduceRow atTargetSize(List<AllReduceRow> rows, int g) {
    AllReduceRow best = null;
    for (AllReduceRow r : rows) {
      if (r.groupSize() != g) {
        continue;
      }
      if (r.bytes() == TARGET_BYTES) {
        return r;
      }
      if (best == null || r.bytes() > best.bytes()) {
        best = r;
      }
    }
    return best;
  }

  private static XYChart chart(String network, List<AllReduceRow> rows) {
    XYChart chart = new XYChartBuilder().width(900).height(520)
        .title("Group all-reduce bus bandwidth vs message size (" + network + ")")
        .xAxisTitle("message size (bytes)").yAxisTitle("MB/s (log scale)").build();
    // Both axes logarithmic: bandwidths span five decades from 4 KiB to 256 MiB.
    chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    List<Double> sizes = rows.stream().map(r -> (double) r.bytes()).distinct().sorted().toList();
    for (int g : new TreeSet<>(rows.stream().map(AllReduceRow::groupSize).toList())) {
      List<AllReduceRow> mine = rows.stream().filter(r -> r.groupSize() == g).toList();
      chart.addSeries("busbw g=" + g, mine.stream().map(r -> (double) r.bytes()).toList(),
          mine.stream().map(AllReduceRow::busbwMBps).toList());
    }
    double raw = rows.isEmpty() ? Double.NaN : rows.get(0).rawTcpMBps();
    if (Double.isFinite(raw) && !sizes.isEmpty()) {
      chart.addSeries("raw TCP", List.of(sizes.get(0), sizes.get(sizes.size() - 1)), List.of(raw, raw));
      chart.addSeries(TARGET_RATIO + " x raw TCP", List.of(sizes.get(0), sizes.get(sizes.size() - 1)),
          List.of(TARGET_RATIO * raw, TARGET_RATIO * raw));
    }
    return chart;
  }

  private static String warmupText(AllReducePlan plan, AllReduceRun run) {
    if (!plan.warmupBoundedByTime()) {
      return String.valueOf(plan.warmup());
    }
    String text = "by size (" + plan.sizes().stream().map(b -> ByteSize.label(b) + ": " + plan.warmupOps(b))
        .collect(Collectors.joining(", ")) + ", or fewer where they took over "
        + AllReducePlan.WARMUP_BUDGET_MS / 1000 + " s";
    if (run.warmupOps() == null) {
      return text + ")";
    }
    return text + "; ran " + plan.cells().stream().map(c -> ByteSize.label(c.bytes()) + " g=" + c.groupSize() + ": "
        + run.warmupOps()[c.index()]).collect(Collectors.joining(", ")) + ")";
  }
}
