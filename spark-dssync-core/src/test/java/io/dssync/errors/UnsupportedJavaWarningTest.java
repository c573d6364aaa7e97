package io.dssync.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A fit on a Java that Spark does not support warns at its start, naming what will fail and the fix. */
class UnsupportedJavaWarningTest {
  @Test
  void theJavasSpark4SupportsDoNotWarn() {
    assertEquals(Optional.empty(), FileErrors.unsupportedJava(17, "3.4.2"));
    assertEquals(Optional.empty(), FileErrors.unsupportedJava(21, "3.4.2"));
  }

  @Test
  void anotherJavaIsNamedWithTheFix() {
    String w = FileErrors.unsupportedJava(22, "3.4.2").orElseThrow();
    assertTrue(w.startsWith("Java 22 is not a version Spark supports") && w.contains("JAVA_HOME"), w);
    assertTrue(!w.contains("Hadoop"), "Java 22 still runs Hadoop's login: " + w);
  }

  @Test
  void fromJava23TheWarningSaysCheckpointsMetricsFilesAndSavedModelsFailOnHadoopBefore35() {
    String w = FileErrors.unsupportedJava(25, "3.4.2").orElseThrow();
    assertTrue(w.contains("Hadoop 3.4.2's file systems refuse it"), w);
    assertTrue(w.contains("--checkpoint-dir") && w.contains("--metrics-out") && w.contains("saved models"), w);
    assertTrue(w.contains("Java 17 or 21") && w.contains("JAVA_HOME"), w);
  }

  @Test
  void onHadoop35TheWarningDoesNotSayFilesFail() {
    String w = FileErrors.unsupportedJava(25, "3.5.0").orElseThrow();
    assertTrue(w.startsWith("Java 25 is not a version Spark supports") && !w.contains("Hadoop"), w);
  }

  @Test
  void hadoopsLoginFailsFromJava23BeforeHadoop35() {
    assertTrue(FileErrors.hadoopRefuses(23, "3.3.4"));
    assertTrue(FileErrors.hadoopRefuses(25, "3.4.2"));
    assertFalse(FileErrors.hadoopRefuses(22, "3.4.2"));
    assertFalse(FileErrors.hadoopRefuses(25, "3.5.0"));
    assertFalse(FileErrors.hadoopRefuses(25, "4.0.0-SNAPSHOT"));
  }
}
