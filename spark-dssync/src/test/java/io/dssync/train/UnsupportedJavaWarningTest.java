package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A fit on a Java that Spark 4.1 does not support warns at its start, naming what will fail and the fix. */
class UnsupportedJavaWarningTest {
  @Test
  void theJavasSpark4SupportsDoNotWarn() {
    assertEquals(Optional.empty(), DsSyncTrainer.unsupportedJava(17));
    assertEquals(Optional.empty(), DsSyncTrainer.unsupportedJava(21));
  }

  @Test
  void anotherJavaIsNamedWithTheFix() {
    String w = DsSyncTrainer.unsupportedJava(22).orElseThrow();
    assertTrue(w.startsWith("Java 22 is not a version Spark supports") && w.contains("JAVA_HOME"), w);
    assertTrue(!w.contains("Hadoop"), "Java 22 still runs Hadoop's login: " + w);
  }

  @Test
  void fromJava23TheWarningSaysCheckpointsMetricsFilesAndSavedModelsFail() {
    String w = DsSyncTrainer.unsupportedJava(25).orElseThrow();
    assertTrue(w.contains("--checkpoint-dir") && w.contains("--metrics-out") && w.contains("saved models"), w);
    assertTrue(w.contains("Java 17 or 21") && w.contains("JAVA_HOME"), w);
  }
}
