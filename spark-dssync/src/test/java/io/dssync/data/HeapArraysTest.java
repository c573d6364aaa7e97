package io.dssync.data;

import io.dssync.data.Labels;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.testing.ChildJvm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Arrays of examples too large for the heap are a clear error that Spark does not take for fatal:
 * an OutOfMemoryError in a task ends the JVM running it, in local mode the driver (a notebook's
 * kernel).
 */
class HeapArraysTest {
  @Test
  void anArrayLargerThanTheHeapIsAClearErrorWithoutTheOutOfMemoryErrorAsItsCause() {
    long floats = Runtime.getRuntime().maxMemory() / Float.BYTES + 1_000_000;
    DsSyncException e = assertThrows(DsSyncException.class, () -> HeapArrays.floats(floats, "shard 3 (9 examples)"));
    assertEquals(ErrorKind.CONFIG, e.kind());
    assertTrue(e.getMessage().startsWith("Out of Java heap for shard 3 (9 examples) (" + (floats * 4 >> 20)
        + " MiB; the heap holds at most " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB"), e.getMessage());
    assertTrue(e.getMessage().contains("the driver's JVM, which runs the tasks in local mode: raise"
        + " DSSYNC_DRIVER_MEMORY"), e.getMessage());
    assertNull(e.getCause());
  }

  @Test
  void copiesOfTheFirstExamplesHoldThemAlone() {
    LabeledArrays three = HeapArrays.firstExamples(new float[] {1, 2, 3, 4, 5, 6}, new float[] {7, 8, 9}, 2, 2,
        Labels.classes(10), "two");
    assertArrayEquals(new float[] {1, 2, 3, 4}, three.features());
    assertArrayEquals(new float[] {7, 8}, three.labels());
  }

  @Test
  void dssyncTrainWithAHeapTooSmallForItsExamplesNamesTheDriversHeapNotSparksExitCode52() throws Exception {
    ChildJvm.Run run = ChildJvm.run(ChildJvm.thisJdk(), Duration.ofSeconds(240), List.of("-Xmx560m"),
        "io.dssync.cli.Main", "train", "--epochs", "1", "--test-limit", "100");
    String out = run.output();
    // Where the heap runs out first (a shard's arrays, or Spark reading the spilled broadcast of the
    // examples back on the driver) depends on the collector; either way the driver's heap is named.
    assertEquals(2, run.exitCode(), out);
    assertTrue(out.contains("dssync: Out of Java heap ") && out.contains("raise DSSYNC_DRIVER_MEMORY"), out);
    assertFalse(out.contains("OutOfMemoryError"), out);
  }
}
