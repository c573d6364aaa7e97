package io.dssync.bench.train;

import java.util.List;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Accuracy-vs-training-time chart of several runs, with the target as a dashed line. */
public final class TrainBenchChart {
  private TrainBenchChart() {}

  public static XYChart accuracyVsTime(String title, Map<String, TrainBenchCurve> curves, double target) {
    XYChart chart = new XYChartBuilder().width(900).height(520).title(title)
        .xAxisTitle("training time (s; evaluation excluded)").yAxisTitle("test accuracy").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    double maxX = 0;
    for (Map.Entry<String, TrainBenchCurve> e : curves.entrySet()) {
      List<TrainBenchCurve.Point> pts = e.getValue().points();
      if (pts.isEmpty()) {
        continue; // XChart refuses empty series
      }
      double[] xs = pts.stream().mapToDouble(TrainBenchCurve.Point::trainSeconds).toArray();
      double[] ys = pts.stream().mapToDouble(TrainBenchCurve.Point::accuracy).toArray();
      chart.addSeries(e.getKey(), xs, ys).setMarker(SeriesMarkers.CIRCLE);
      maxX = Math.max(maxX, xs[xs.length - 1]);
    }
    if (maxX > 0) {
      XYSeries line = chart.addSeries(String.format(java.util.Locale.ROOT, "target %.3f", target),
          new double[] {0, maxX}, new double[] {target, target});
      line.setMarker(SeriesMarkers.NONE);
      line.setLineStyle(SeriesLines.DASH_DASH);
    }
    return chart;
  }
}
