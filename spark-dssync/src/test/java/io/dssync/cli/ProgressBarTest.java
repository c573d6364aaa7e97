package io.dssync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.metrics.StageMetrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The terminal progress bar and the plain-line fallback off a terminal. */
class ProgressBarTest {
  private static StageMetrics stage(int stage, long end, double accuracy) {
    return new StageMetrics(stage, end - 10, end, 0.5, 2.0, 1500, 0.75, 0.6, accuracy, 8, 2, 1, 0.5, 100, 0.01);
  }

  @Test
  void barRedrawsInPlaceAndEndsTheLineAfterTheLastStage() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    bar.onStage(stage(0, 10, 0.7), List.of(), 4, 40);
    bar.onStage(stage(1, 20, Double.NaN), List.of(), 4, 40);
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.startsWith("\r["), text);
    assertFalse(text.contains("\n"), "no newline before the last stage: " + text);
    assertTrue(text.contains("[###############---------------]  50% step 20/40"), text);
    assertTrue(text.contains("acc 0.7000"), "last evaluated accuracy is kept: " + text);
    assertTrue(text.contains("ETA 4s"), "2 stages of 2 s done, half left: " + text);
    assertTrue(text.contains("| sync 20.0% (50% waiting) |"), "1 of the 2 ms of sync per step waited: " + text);
    bar.onStage(stage(2, 30, Double.NaN), List.of(), 4, 40);
    bar.onStage(stage(3, 40, 0.8), List.of(), 4, 40);
    assertTrue(bytes.toString(StandardCharsets.UTF_8).endsWith(System.lineSeparator()));
  }

  @Test
  void offATerminalEachStageIsOnePlainLine() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    var listener = ProgressBar.choose(false, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    listener.onStage(stage(0, 10, 0.7), List.of(), 2, 20);
    listener.onStage(stage(1, 20, 0.8), List.of(), 2, 20);
    String[] lines = bytes.toString(StandardCharsets.UTF_8).split(System.lineSeparator());
    assertEquals(2, lines.length);
    assertTrue(lines[0].startsWith("[dssync] stage 1/2"), lines[0]);
    assertFalse(bytes.toString(StandardCharsets.UTF_8).contains("\r"));
  }
}
