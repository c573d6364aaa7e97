package io.dssync.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dssync.errors.FileErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A run's metrics as JSON lines on any Hadoop file system, written by the driver as stages finish
 * (flushed after every stage, so a failed run keeps what it did). Lines, by {@code type}:
 * <ul>
 *   <li>{@code run}: name, configuration, schedule, group size, workers, start time (epoch ms);
 *   <li>{@code step}: step, wallSeconds since the run started, loss, computeMs, syncMs, waitMs,
 *       transferMs, bytes (means over workers);
 *   <li>{@code stage}: stage, endStep, epoch, wallSeconds, stageSeconds, trainLoss, testLoss,
 *       testAccuracy (null when not evaluated), testMetricName (accuracy, masked_accuracy or auc),
 *       testMetric (null when not evaluated), samplesPerSecond, syncShare, consensusDistance.
 * </ul>
 * A step's wall time is interpolated inside its stage by the steps' compute + sync time, because
 * workers report step durations, not clock readings.
 */
public final class MetricsLog implements ProgressListener, AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** What to do when the metrics file cannot be written. */
  private static final String WRITABLE = "Choose a --metrics-out (or metricsPath) in a folder that exists and this"
      + " user may write; any Hadoop file system URI works.";

  private final String path;
  private final FSDataOutputStream out;
  private final long startNanos = System.nanoTime();
  private double lastEnd;

  private MetricsLog(String path, FSDataOutputStream out) {
    this.path = path;
    this.out = out;
  }

  /** Creates (overwrites) {@code path} and writes the run line. */
  public static MetricsLog open(String path, RunHeader header, Configuration hadoop) {
    try {
      Path p = new Path(path);
      FileSystem fs = FileErrors.throughHadoop(path, () -> p.getFileSystem(hadoop));
      MetricsLog log = new MetricsLog(path, fs.create(p, true));
      ObjectNode run = JSON.createObjectNode();
      run.put("type", "run");
      run.put("run", header.run());
      run.put("schedule", header.schedule());
      run.put("groupSize", header.groupSize());
      run.put("workers", header.workers());
      run.put("config", header.config());
      run.put("startedAt", System.currentTimeMillis());
      log.write(run);
      log.out.hflush();
      return log;
    } catch (IOException e) {
      throw FileErrors.metricsFile(path, "cannot be created for metrics: " + e.getMessage(), WRITABLE);
    }
  }

  @Override
  public void onStage(StageMetrics m, List<StepMetrics> steps, int stages, long totalSteps) {
    double end = (System.nanoTime() - startNanos) / 1e9;
    // Never before the previous stage's end, so wall time stays monotone across stages.
    double begin = Math.max(lastEnd, end - m.wallSeconds());
    lastEnd = end;
    double busy = steps.stream().mapToDouble(s -> s.computeMs() + s.syncMs()).sum();
    double done = 0;
    try {
      for (StepMetrics s : steps) {
        done += s.computeMs() + s.syncMs();
        double fraction = busy > 0 ? done / busy : 1.0;
        ObjectNode line = JSON.createObjectNode();
        line.put("type", "step");
        line.put("step", s.step());
        line.put("wallSeconds", begin + fraction * (end - begin));
        line.put("loss", s.loss());
        line.put("computeMs", s.computeMs());
        line.put("syncMs", s.syncMs());
        line.put("waitMs", s.waitMs());
        line.put("transferMs", s.transferMs());
        line.put("bytes", s.bytesSent());
        write(line);
      }
      ObjectNode stage = JSON.createObjectNode();
      stage.put("type", "stage");
      stage.put("stage", m.stage());
      stage.put("endStep", m.endStep());
      stage.put("epoch", m.epoch());
      stage.put("wallSeconds", end);
      stage.put("stageSeconds", m.wallSeconds());
      stage.put("trainLoss", m.trainLoss());
      putOrNull(stage, "testLoss", m.testLoss());
      putOrNull(stage, "testAccuracy", m.testAccuracy());
      stage.put("testMetricName", m.testMetricName());
      putOrNull(stage, "testMetric", m.testMetric());
      stage.put("samplesPerSecond", m.samplesPerSecond());
      stage.put("computeMsPerStep", m.computeMsPerStep());
      stage.put("syncMsPerStep", m.syncMsPerStep());
      stage.put("syncShare", m.syncShare());
      putOrNull(stage, "stageEndMs", m.stageEndMs());
      stage.put("bytesSentPerStep", m.bytesSentPerStep());
      stage.put("consensusDistance", m.consensusDistance());
      write(stage);
      out.hflush();
    } catch (IOException e) {
      throw FileErrors.metricsFile(path, "cannot be appended to: " + e.getMessage(), WRITABLE);
    }
  }

  private static void putOrNull(ObjectNode node, String field, double value) {
    if (Double.isFinite(value)) {
      node.put(field, value);
    } else {
      node.putNull(field);
    }
  }

  private void write(ObjectNode line) throws IOException {
    out.write((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw FileErrors.metricsFile(path, "cannot be closed: " + e.getMessage(), WRITABLE);
    }
  }
}
