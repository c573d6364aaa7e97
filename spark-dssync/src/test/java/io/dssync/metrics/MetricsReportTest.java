package io.dssync.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.train.TrainerConfig;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics file format round trip and the report rendering. Stage and step records here are
 * made up (a unit test of the format); real runs are rendered by the acceptance run in the report.
 */
class MetricsReportTest {
  private static final Configuration HADOOP = new Configuration();

  @BeforeAll
  static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  private static String writeRun(Path dir, String schedule, int group, double syncMs, int stages) {
    String file = dir.resolve(schedule + ".jsonl").toString();
    TrainerConfig config = TrainerConfig.builder().set(TrainerConfig.SCHEDULE, schedule)
        .set(TrainerConfig.GROUP_SIZE, group).build();
    try (MetricsLog log = MetricsLog.open(file, config.runHeader(schedule), HADOOP)) {
      for (int s = 0; s < stages; s++) {
        List<StepMetrics> steps = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          long step = s * 5L + i;
          steps.add(new StepMetrics(step, 2.0 / (1 + step), 10, syncMs, syncMs / 2, syncMs / 4, 1000));
        }
        double accuracy = s % 2 == 0 ? 0.5 + 0.1 * s : Double.NaN; // every other stage evaluated
        log.onStage(new StageMetrics(s, s * 5L, s * 5L + 5, s + 1, 0.01, 1000, 1.0 / (1 + s), 0.9,
            accuracy, 10, syncMs, syncMs / 2, syncMs / 4, 1000, 0.01), steps, stages, stages * 5L);
      }
    }
    return file;
  }

  @Test
  void metricsFileHasOneLinePerStepAndStageAndReadsBack(@TempDir Path dir) throws Exception {
    String file = writeRun(dir, "random", 2, 5, 3);
    List<String> lines = Files.readAllLines(Path.of(file));
    assertEquals(1 + 3 * 5 + 3, lines.size(), "run line + 5 steps and 1 stage line per stage");
    assertTrue(lines.get(0).contains("\"type\":\"run\""), lines.get(0));
    assertTrue(lines.get(1).contains("\"syncMs\":5.0") && lines.get(1).contains("\"bytes\":1000.0"), lines.get(1));
    MetricsRun run = MetricsRun.read(file, HADOOP);
    assertEquals("random g=2 (N=4)", run.label());
    assertEquals(15, run.steps().size());
    assertEquals(3, run.stages().size());
    assertEquals(5.0 / 15, run.steps().get(0).syncShare(), 1e-9);
    assertTrue(Double.isNaN(run.stages().get(1).testAccuracy()), "unevaluated stage reads back as NaN");
    assertEquals(0.7, run.stages().get(2).testAccuracy(), 1e-9);
    for (int i = 1; i < run.steps().size(); i++) {
      assertTrue(run.steps().get(i).wallSeconds() >= run.steps().get(i - 1).wallSeconds(), "wall time is monotone");
    }
  }

  @Test
  void reportDrawsEveryRunOnEachChartAndWritesAnHtmlPage(@TempDir Path dir) throws Exception {
    List<MetricsRun> runs = List.of(
        MetricsRun.read(writeRun(dir, "full", 4, 20, 4), HADOOP),
        MetricsRun.read(writeRun(dir, "random", 2, 5, 4), HADOOP));
    List<String> written = Report.render(runs, dir.resolve("report").toString(), HADOOP);
    assertEquals(6, written.size(), written.toString());
    for (String name : List.of("loss_vs_step", "loss_vs_time", "accuracy_vs_step", "accuracy_vs_time",
        "sync_share_vs_step")) {
      BufferedImage png = ImageIO.read(dir.resolve("report/" + name + ".png").toFile());
      assertEquals(900, png.getWidth(), name);
      assertEquals(520, png.getHeight(), name);
    }
    assertEquals(2, ReportCharts.syncShareVsStep(runs).getSeriesMap().size(), "one series per run");
    assertEquals(2, ReportCharts.metricVsTime(runs).getSeriesMap().size());
    assertEquals("accuracy", ReportCharts.metricVsStep(runs).getYAxisTitle());
    String html = Files.readString(dir.resolve("report/index.html"));
    assertTrue(html.contains("full g=4 (N=4)") && html.contains("random g=2 (N=4)"), html);
    assertTrue(html.contains("<img src=\"sync_share_vs_step.png\""), html);
    // Every step of these runs waited half its sync.
    assertTrue(html.contains("<th>of the sync, waiting for peers</th>") && html.contains("<td>50%</td>"), html);
  }

  @Test
  void aBinaryRunIsChartedByItsAucNamedOnTheAxis(@TempDir Path dir) throws Exception {
    String file = dir.resolve("deepfm.jsonl").toString();
    TrainerConfig config = TrainerConfig.builder().set(TrainerConfig.MODEL, "deepfm").build();
    try (MetricsLog log = MetricsLog.open(file, config.runHeader("deepfm"), HADOOP)) {
      for (int s = 0; s < 3; s++) {
        List<StepMetrics> steps = List.of(new StepMetrics(s, 0.6, 10, 1, 0.5, 0.25, 1000));
        // Accuracy and AUC differ, so the chart shows which one it plots.
        log.onStage(new StageMetrics(s, s, s + 1, s + 1, 0.01, 1000, 0.6, 0.55, 0.70, 10, 1, 0.5, 0.25, 1000,
            0.01, "auc", 0.60 + 0.05 * s, 120), steps, 3, 3);
      }
    }
    assertTrue(Files.readString(Path.of(file)).contains("\"stageEndMs\":120.0"),
        "the stage lines carry the stage-end average");
    List<MetricsRun> runs = List.of(MetricsRun.read(file, HADOOP));
    assertEquals("auc", runs.get(0).metricName());
    var chart = ReportCharts.metricVsStep(runs);
    assertEquals("AUC", chart.getYAxisTitle());
    assertTrue(chart.getTitle().contains("AUC"), chart.getTitle());
    double[] y = chart.getSeriesMap().values().iterator().next().getYData();
    assertEquals(0.70, y[2], 1e-9, "the AUC of the last stage, not its accuracy");
    List<String> written = Report.render(runs, dir.resolve("report").toString(), HADOOP);
    assertTrue(written.stream().anyMatch(f -> f.endsWith("auc_vs_step.png")), written.toString());
    assertTrue(Files.readString(dir.resolve("report/index.html")).contains("<td>AUC</td><td>0.7000</td>"));
  }

  @Test
  void theSyncShareChartSeparatesAStrategyThatSyncsMore(@TempDir Path dir) throws Exception {
    MetricsRun slow = MetricsRun.read(writeRun(dir, "full", 4, 30, 2), HADOOP);
    MetricsRun fast = MetricsRun.read(writeRun(dir, "random", 2, 3, 2), HADOOP);
    var chart = ReportCharts.syncShareVsStep(List.of(slow, fast));
    double slowY = chart.getSeriesMap().get(slow.label()).getYData()[0];
    double fastY = chart.getSeriesMap().get(fast.label()).getYData()[0];
    assertEquals(30.0 / 40, slowY, 1e-9);
    assertEquals(3.0 / 13, fastY, 1e-9);
    assertNotEquals(slowY, fastY);
  }

  @Test
  void lossIsSmoothedOverAMovingWindow() {
    List<MetricsRun.Step> steps = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      steps.add(new MetricsRun.Step(i, i, i % 2 == 0 ? 1.0 : 3.0, 1, 0, 0, 0, 0));
    }
    double[] smooth = ReportCharts.smoothedLoss(new MetricsRun("x", "x", "full", 1, 1, steps, List.of()));
    assertEquals(1.0, smooth[0], 1e-9);
    assertEquals(2.0, smooth[19], 1e-9, "10-step window over alternating 1 and 3");
  }

  @Test
  void aFileThatIsNotAMetricsFileIsRejectedNamingIt(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("notes.txt");
    Files.writeString(bad, "{\"type\":\"step\",\"step\":1}\n");
    DsSyncException e = assertThrows(DsSyncException.class, () -> MetricsRun.read(bad.toString(), HADOOP));
    assertTrue(e.getMessage().contains(bad.toString()) && e.getMessage().contains("no {\"type\":\"run\"}"),
        e.getMessage());
    Files.writeString(bad, "not json\n");
    DsSyncException j = assertThrows(DsSyncException.class, () -> MetricsRun.read(bad.toString(), HADOOP));
    assertTrue(j.getMessage().contains("line 1"), j.getMessage());
    assertTrue(j.getMessage().endsWith("Pass a file that 'dssync train --metrics-out' (or the Spark ML param"
        + " metricsPath) wrote."), j.getMessage());
  }

  @Test
  void aMissingMetricsFileSaysHowToWriteOneAndNothingAboutModels(@TempDir Path dir) {
    String missing = dir.resolve("run.jsonl").toString();
    DsSyncException e = assertThrows(DsSyncException.class, () -> MetricsRun.read(missing, HADOOP));
    assertTrue(e.getMessage().contains(missing + " does not exist. Write a metrics file with 'dssync train"
        + " --metrics-out " + missing + "'"), e.getMessage());
    assertTrue(!e.getMessage().contains("model.write()"), e.getMessage());
  }

  @Test
  void aMetricsFileThatCannotBeCreatedSaysWhereToWriteIt(@TempDir Path dir) throws Exception {
    Path notAFolder = dir.resolve("plain-file");
    Files.writeString(notAFolder, "x");
    String path = notAFolder.resolve("run.jsonl").toString();
    DsSyncException e = assertThrows(DsSyncException.class, () -> MetricsLog.open(path,
        new RunHeader("r", "random", 2, 4, "c"), HADOOP));
    assertTrue(e.getMessage().contains(path + " cannot be created for metrics"), e.getMessage());
    assertTrue(e.getMessage().contains("Choose a --metrics-out (or metricsPath) in a folder that exists"),
        e.getMessage());
  }

  @Test
  void reportNeedsAtLeastOneRun(@TempDir Path dir) {
    assertThrows(DsSyncException.class, () -> Report.render(List.of(), new File(dir.toFile(), "r").getPath(), HADOOP));
  }
}
