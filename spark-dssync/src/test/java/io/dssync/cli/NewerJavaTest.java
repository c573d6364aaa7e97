package io.dssync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dssync.testing.ChildJvm;
import io.dssync.errors.FileErrors;
import io.dssync.testing.ChildJvm.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a Java whose Hadoop login fails (24 and later, with Hadoop before 3.5), a dssync command that opens a
 * Hadoop path fails naming the path and the fix, instead of an UnsupportedOperationException from inside
 * Hadoop; with Hadoop 3.5 (the spark-4.2 build) the same command works. Runs the real command on such a
 * JDK when one is installed next to the one running the tests (or named by DSSYNC_TEST_NEWER_JDK).
 */
class NewerJavaTest {
  @Test
  void aCommandThatOpensAHadoopPathOnJava24OrLaterFailsNamingThePathAndTheFix(@TempDir Path dir)
      throws IOException, InterruptedException {
    Path jdk = newerJdkOrSkip();
    Path metrics = dir.resolve("run.jsonl");
    Files.writeString(metrics, "{\"type\":\"run\",\"run\":\"a\"}\n");
    Run run = run(jdk, Main.class.getName(), "report", "--out", dir.resolve("report").toString(),
        metrics.toString());
    String output = run.output();
    int feature = feature(jdk);
    if (!FileErrors.hadoopRefuses(feature, VersionInfo.getVersion())) {
      assertEquals(0, run.exitCode(), output);
      assertTrue(Files.exists(dir.resolve("report/loss_vs_step.png")), output);
      return;
    }
    assertEquals(2, run.exitCode(), output);
    assertTrue(output.contains("dssync: Cannot open " + metrics + " on Java " + feature + ": "), output);
    assertTrue(output.contains("JAVA_HOME"), output);
    assertFalse(output.contains("Exception in thread"), output);
  }

  @Test
  void savingAModelThroughSparkMlOnJava24OrLaterFailsNamingThePathAndTheFix(@TempDir Path dir)
      throws IOException, InterruptedException {
    Path jdk = newerJdkOrSkip();
    Path saved = dir.resolve("model");
    Run run = run(jdk, "io.dssync.ml.SaveOnNewerJava", saved.toString());
    if (!FileErrors.hadoopRefuses(feature(jdk), VersionInfo.getVersion())) {
      assertEquals(0, run.exitCode(), run.output());
      assertTrue(Files.exists(saved.resolve("metadata")), run.output());
      return;
    }
    assertEquals(3, run.exitCode(), run.output());
    assertTrue(run.output().contains("dssync: Cannot open " + saved + " on Java " + feature(jdk) + ": "),
        run.output());
    assertFalse(Files.exists(saved), "nothing is written");
  }

  private static Run run(Path jdk, String mainClass, String... args) throws IOException, InterruptedException {
    return ChildJvm.run(jdk, Duration.ofSeconds(120), mainClass, args);
  }

  /** A JDK of version 24 or later beside this one (or DSSYNC_TEST_NEWER_JDK); the test is skipped without one. */
  private static Path newerJdkOrSkip() throws IOException {
    Optional<Path> jdk = newerJdk();
    assumeTrue(jdk.isPresent(), "no JDK 24 or later installed next to " + System.getProperty("java.home"));
    return jdk.get();
  }

  private static Optional<Path> newerJdk() throws IOException {
    String named = System.getenv("DSSYNC_TEST_NEWER_JDK");
    if (named != null && !named.isBlank()) {
      return Optional.of(Path.of(named));
    }
    Path jdks = Path.of(System.getProperty("java.home")).toRealPath().getParent();
    try (Stream<Path> all = Files.list(jdks)) {
      List<Path> found = all.filter(d -> Files.isExecutable(d.resolve("bin/java")) && feature(d) >= 24).toList();
      return found.stream().findFirst();
    }
  }

  /** The feature version in a JDK's release file (JAVA_VERSION="25.0.1"), or 0 when unreadable. */
  private static int feature(Path jdk) {
    try {
      for (String line : Files.readAllLines(jdk.resolve("release"))) {
        if (line.startsWith("JAVA_VERSION=")) {
          return Integer.parseInt(line.substring("JAVA_VERSION=".length()).replace("\"", "").split("[.+-]")[0]);
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return 0;
  }
}
