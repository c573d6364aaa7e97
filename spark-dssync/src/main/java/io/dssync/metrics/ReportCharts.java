package io.dssync.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The report's charts: one series per run, so several runs compare on one chart. */
final class ReportCharts {
  /** Steps in the moving average of the per-step training loss (raw per-step loss is noisy). */
  static final int LOSS_WINDOW = 10;
  private static final int WIDTH = 900;
  private static final int HEIGHT = 520;

  private ReportCharts() {}

  static XYChart lossVsStep(List<MetricsRun> runs) {
    return perStep(runs, "Training loss by step (moving average of " + LOSS_WINDOW + " steps)",
        "step", "loss", r -> smoothedLoss(r), false);
  }

  static XYChart lossVsTime(List<MetricsRun> runs) {
    return perStep(runs, "Training loss by wall time (moving average of " + LOSS_WINDOW + " steps)",
        "wall time (s)", "loss", r -> smoothedLoss(r), true);
  }

  static XYChart syncShareVsStep(List<MetricsRun> runs) {
    return perStep(runs, "Share of step time spent synchronizing", "step", "sync share",
        r -> r.steps().stream().mapToDouble(MetricsRun.Step::syncShare).toArray(), false);
  }

  static XYChart metricVsStep(List<MetricsRun> runs) {
    return perStage(runs, "step", s -> (double) s.endStep());
  }

  static XYChart metricVsTime(List<MetricsRun> runs) {
    return perStage(runs, "wall time (s)", MetricsRun.Stage::wallSeconds);
  }

  /** How a metric reads on a chart: "accuracy", "masked-token accuracy", "AUC". */
  static String metricLabel(String metricName) {
    return switch (metricName) {
      case "masked_accuracy" -> "masked-token accuracy";
      case "auc" -> "AUC";
      default -> metricName;
    };
  }

  /** The runs' metric names in order, once each ("accuracy"; "accuracy / AUC" when runs differ). */
  static String metricsOf(List<MetricsRun> runs) {
    return String.join(" / ", runs.stream().map(r -> metricLabel(r.metricName())).distinct().toList());
  }

  private static XYChart perStep(List<MetricsRun> runs, String title, String xTitle, String yTitle,
      Function<MetricsRun, double[]> values, boolean byTime) {
    XYChart chart = chart(title, xTitle, yTitle);
    for (MetricsRun run : runs) {
      double[] y = values.apply(run);
      ToDoubleFunction<MetricsRun.Step> x = byTime ? MetricsRun.Step::wallSeconds : s -> (double) s.step();
      double[] xs = run.steps().stream().mapToDouble(x).toArray();
      add(chart, run, xs, y);
    }
    return chart;
  }

  /** The task's own validation metric (accuracy, masked-token accuracy or AUC), named on the axis. */
  private static XYChart perStage(List<MetricsRun> runs, String xTitle, ToDoubleFunction<MetricsRun.Stage> x) {
    String metric = metricsOf(runs);
    XYChart chart = chart("Validation " + metric + " by " + (xTitle.startsWith("step") ? "step" : "wall time"),
        xTitle, metric);
    for (MetricsRun run : runs) {
      List<MetricsRun.Stage> evaluated = run.stages().stream()
          .filter(s -> !Double.isNaN(s.testMetric())).toList();
      double[] xs = evaluated.stream().mapToDouble(x).toArray();
      double[] ys = evaluated.stream().mapToDouble(MetricsRun.Stage::testMetric).toArray();
      XYSeries series = add(chart, run, xs, ys);
      if (series != null) {
        series.setMarker(SeriesMarkers.CIRCLE);
      }
    }
    return chart;
  }

  /** Adds the finite points of one run; returns null when it has none (XChart rejects empty series). */
  private static XYSeries add(XYChart chart, MetricsRun run, double[] xs, double[] ys) {
    List<Double> fx = new ArrayList<>();
    List<Double> fy = new ArrayList<>();
    for (int i = 0; i < Math.min(xs.length, ys.length); i++) {
      if (Double.isFinite(xs[i]) && Double.isFinite(ys[i])) {
        fx.add(xs[i]);
        fy.add(ys[i]);
      }
    }
    if (fx.isEmpty()) {
      return null;
    }
    String name = uniqueName(chart, run.label());
    XYSeries series = chart.addSeries(name, fx, fy);
    series.setMarker(SeriesMarkers.NONE);
    return series;
  }

  /** Two runs with the same settings still get two legend entries. */
  private static String uniqueName(XYChart chart, String label) {
    String name = label;
    for (int i = 2; chart.getSeriesMap().containsKey(name); i++) {
      name = label + " #" + i;
    }
    return name;
  }

  static double[] smoothedLoss(MetricsRun run) {
    List<MetricsRun.Step> steps = run.steps();
    double[] out = new double[steps.size()];
    double sum = 0;
    for (int i = 0; i < steps.size(); i++) {
      sum += steps.get(i).loss();
      if (i >= LOSS_WINDOW) {
        sum -= steps.get(i - LOSS_WINDOW).loss();
      }
      out[i] = sum / Math.min(i + 1, LOSS_WINDOW);
    }
    return out;
  }

  private static XYChart chart(String title, String xTitle, String yTitle) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    return chart;
  }
}
