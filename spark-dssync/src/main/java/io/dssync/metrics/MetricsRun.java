package io.dssync.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dssync.errors.FileErrors;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** One run's metrics file (see {@link MetricsLog}) read back: the run line, steps and stages. */
public record MetricsRun(String path, String name, String schedule, int groupSize, int workers,
    List<Step> steps, List<Stage> stages) {
  /** What to do with a file that is not a metrics file. */
  private static final String WRITTEN_BY_TRAIN =
      "Pass a file that 'dssync train --metrics-out' (or the Spark ML param metricsPath) wrote.";

  /** One step line. */
  public record Step(long step, double wallSeconds, double loss, double computeMs, double syncMs,
      double waitMs, double transferMs, double bytes) {
    /** Share of the step spent synchronizing. */
    public double syncShare() {
      double total = computeMs + syncMs;
      return total == 0 ? 0 : syncMs / total;
    }
  }

  /**
   * One stage line; testLoss, testAccuracy and testMetric are NaN when the stage was not
   * evaluated. testMetricName is the model's metric ("accuracy", "masked_accuracy", "auc"); files
   * written before it existed read as "accuracy" with testMetric = testAccuracy.
   */
  public record Stage(int stage, long endStep, double epoch, double wallSeconds, double trainLoss,
      double testLoss, double testAccuracy, double samplesPerSecond, double syncShare,
      double consensusDistance, String testMetricName, double testMetric) {
    /** A classifier's stage (metric = accuracy). */
    public Stage(int stage, long endStep, double epoch, double wallSeconds, double trainLoss, double testLoss,
        double testAccuracy, double samplesPerSecond, double syncShare, double consensusDistance) {
      this(stage, endStep, epoch, wallSeconds, trainLoss, testLoss, testAccuracy, samplesPerSecond, syncShare,
          consensusDistance, ACCURACY, testAccuracy);
    }
  }

  static final String ACCURACY = "accuracy";

  /** A short label for charts: "random g=2 (N=4)". */
  public String label() {
    return schedule + " g=" + groupSize + " (N=" + workers + ")";
  }

  /** The run's test metric ("accuracy", "masked_accuracy" or "auc"), from its stage lines. */
  public String metricName() {
    return stages.stream().map(Stage::testMetricName).findFirst().orElse(ACCURACY);
  }

  public static MetricsRun read(String path, Configuration hadoop) {
    ObjectMapper json = new ObjectMapper();
    List<Step> steps = new ArrayList<>();
    List<Stage> stages = new ArrayList<>();
    JsonNode run = null;
    Path p = new Path(path);
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        FileErrors.throughHadoop(path, () -> p.getFileSystem(hadoop)).open(p), StandardCharsets.UTF_8))) {
      String line;
      int number = 0;
      while ((line = in.readLine()) != null) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode n;
        try {
          n = json.readTree(line);
        } catch (IOException e) {
          throw FileErrors.metricsFile(path, "has a line " + number + " that is not JSON ("
              + e.getMessage().lines().findFirst().orElse("") + ")", WRITTEN_BY_TRAIN);
        }
        switch (n.path("type").asText()) {
          case "run" -> run = n;
          case "step" -> steps.add(new Step(n.get("step").asLong(), d(n, "wallSeconds"), d(n, "loss"),
              d(n, "computeMs"), d(n, "syncMs"), d(n, "waitMs"), d(n, "transferMs"), d(n, "bytes")));
          case "stage" -> stages.add(new Stage(n.get("stage").asInt(), n.get("endStep").asLong(),
              d(n, "epoch"), d(n, "wallSeconds"), d(n, "trainLoss"), d(n, "testLoss"),
              d(n, "testAccuracy"), d(n, "samplesPerSecond"), d(n, "syncShare"), d(n, "consensusDistance"),
              n.path("testMetricName").asText(ACCURACY),
              n.has("testMetric") ? d(n, "testMetric") : d(n, "testAccuracy")));
          default -> { } // lines of a newer format: skipped, so old readers keep working
        }
      }
    } catch (java.io.FileNotFoundException e) {
      throw FileErrors.metricsFile(path, "does not exist", "Write a metrics file with 'dssync train --metrics-out "
          + path + "' (or the Spark ML param metricsPath), then run 'dssync report " + path + "'.");
    } catch (IOException e) {
      throw FileErrors.metricsFile(path, "cannot be read as a metrics file: " + e.getMessage(),
          "Check the path and that this user may read it.");
    }
    if (run == null) {
      throw FileErrors.metricsFile(path, "has no {\"type\":\"run\"} line, so it is not a dssync metrics file",
          WRITTEN_BY_TRAIN);
    }
    return new MetricsRun(path, run.path("run").asText(), run.path("schedule").asText(),
        run.path("groupSize").asInt(), run.path("workers").asInt(), steps, stages);
  }

  private static double d(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? Double.NaN : v.asDouble();
  }
}
