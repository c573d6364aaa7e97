package io.dssync.metrics;

import io.dssync.errors.Errors;
import io.dssync.errors.FileErrors;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;

/**
 * Renders metrics files of one or more runs as PNG charts (loss and the task's own validation
 * metric, named on the axis, against step and wall time: {@code accuracy_vs_step.png},
 * {@code auc_vs_step.png}, {@code masked_accuracy_vs_step.png}, or {@code metric_vs_step.png} when
 * the runs' metrics differ; sync share per step; every run a series on the same chart) and an {@code index.html} that
 * shows them with a summary table. Input and output may be on any Hadoop file system. Needs a
 * headless AWT ({@code -Djava.awt.headless=true}, set by the dssync command).
 */
public final class Report {
  private Report() {}

  /** Writes the report into {@code outDir}; returns the files written, index.html last. */
  public static List<String> render(List<MetricsRun> runs, String outDir, Configuration hadoop) {
    if (runs.isEmpty()) {
      throw Errors.invalidSetting("RUN", "(none)", "the report needs at least one metrics file",
          "Pass one or more files written by 'dssync train --metrics-out FILE'.");
    }
    Map<String, XYChart> charts = new LinkedHashMap<>();
    charts.put("loss_vs_step.png", ReportCharts.lossVsStep(runs));
    charts.put("loss_vs_time.png", ReportCharts.lossVsTime(runs));
    String metric = fileStem(runs);
    charts.put(metric + "_vs_step.png", ReportCharts.metricVsStep(runs));
    charts.put(metric + "_vs_time.png", ReportCharts.metricVsTime(runs));
    charts.put("sync_share_vs_step.png", ReportCharts.syncShareVsStep(runs));
    List<String> written = new ArrayList<>();
    try {
      Path dir = new Path(outDir);
      FileSystem fs = FileErrors.throughHadoop(outDir, () -> dir.getFileSystem(hadoop));
      fs.mkdirs(dir);
      for (Map.Entry<String, XYChart> e : charts.entrySet()) {
        Path file = new Path(dir, e.getKey());
        write(fs, file, BitmapEncoder.getBitmapBytes(e.getValue(), BitmapEncoder.BitmapFormat.PNG));
        written.add(file.toString());
      }
      Path index = new Path(dir, "index.html");
      write(fs, index, html(runs, charts.keySet()).getBytes(StandardCharsets.UTF_8));
      written.add(index.toString());
    } catch (IOException e) {
      throw FileErrors.metricsFile(outDir, "cannot be written as a report folder: " + e.getMessage(),
          "Choose an --out folder this user may create and write.");
    }
    return written;
  }

  /** "accuracy", "masked_accuracy" or "auc" when all runs share it, else "metric". */
  static String fileStem(List<MetricsRun> runs) {
    List<String> names = runs.stream().map(MetricsRun::metricName).distinct().toList();
    return names.size() == 1 && names.get(0).matches("[a-z_]+") ? names.get(0) : "metric";
  }

  private static void write(FileSystem fs, Path file, byte[] bytes) throws IOException {
    try (OutputStream out = fs.create(file, true)) {
      out.write(bytes);
    }
  }

  static String html(List<MetricsRun> runs, Iterable<String> images) {
    StringBuilder sb = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        + "<title>dssync report</title><style>body{font-family:sans-serif;margin:2em}"
        + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
        + "</style></head><body>\n<h1>dssync report</h1>\n<table><tr><th>run</th><th>file</th><th>steps</th>"
        + "<th>wall s</th><th>metric</th><th>final value</th><th>mean sync share</th>"
        + "<th>of the sync, waiting for peers</th><th>samples/s</th></tr>\n");
    for (MetricsRun r : runs) {
      double wall = r.stages().isEmpty() ? Double.NaN : r.stages().get(r.stages().size() - 1).wallSeconds();
      double metric = r.stages().stream().filter(s -> !Double.isNaN(s.testMetric()))
          .reduce((a, b) -> b).map(MetricsRun.Stage::testMetric).orElse(Double.NaN);
      double share = r.steps().stream().mapToDouble(MetricsRun.Step::syncShare).average().orElse(Double.NaN);
      double syncMs = r.steps().stream().mapToDouble(MetricsRun.Step::syncMs).sum();
      double waiting = syncMs > 0 ? r.steps().stream().mapToDouble(MetricsRun.Step::waitMs).sum() / syncMs : Double.NaN;
      double rate = r.stages().stream().mapToDouble(MetricsRun.Stage::samplesPerSecond).average().orElse(Double.NaN);
      sb.append(String.format(Locale.ROOT,
          "<tr><td>%s</td><td>%s</td><td>%d</td><td>%.1f</td><td>%s</td><td>%.4f</td><td>%.3f</td>"
              + "<td>%.0f%%</td><td>%,.0f</td></tr>%n",
          escape(r.label()), escape(r.path()), r.steps().size(), wall,
          escape(ReportCharts.metricLabel(r.metricName())), metric, share, 100 * waiting, rate));
    }
    sb.append("</table>\n");
    for (String image : images) {
      sb.append("<p><img src=\"").append(image).append("\" alt=\"").append(image).append("\"></p>\n");
    }
    return sb.append("</body></html>\n").toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
