package io.dssync.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;

/**
 * Runs the project's shell scripts (submit-scripts/) from tests the way a user does, against the
 * test build: the jars Maven copied into the build folder (lib/, app-lib/) and an application jar
 * packed from the compiled classes (the test phase runs before Maven's own jar).
 */
final class Scripts {
  /** What a script printed (stdout and stderr together) and how it ended. */
  record Result(int exitCode, String output, Path log) {}

  private Scripts() {}

  static Path repo() {
    return buildDir().getParent().getParent();
  }

  static Path buildDir() {
    return Path.of(Objects.requireNonNull(System.getProperty("dssync.buildDir"),
        "system property dssync.buildDir is not set; run the tests through Maven")).toAbsolutePath();
  }

  static Path script(String relative) {
    return repo().resolve("submit-scripts").resolve(relative);
  }

  /** Whether this JVM packed the application jar already. */
  private static boolean appJarPacked;

  /**
   * The application jar, packed once per test JVM from target/classes with the JDK's jar tool.
   * Packed again in every new JVM, even when the file exists: a jar left by an earlier run would
   * hold the classes of before the last compile, and the scripts would test old code.
   */
  static synchronized Path appJar() {
    Path jar = buildDir().resolve("script-tests/spark-dssync-test-app.jar");
    if (!appJarPacked) {
      try {
        Files.createDirectories(jar.getParent());
        Files.deleteIfExists(jar);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      ToolProvider tool = ToolProvider.findFirst("jar").orElseThrow(
          () -> new IllegalStateException("the JDK's jar tool is missing; tests need a full JDK"));
      int rc = tool.run(System.out, System.err, "--create", "--file", jar.toString(),
          "-C", buildDir().resolve("classes").toString(), ".");
      if (rc != 0) {
        throw new IllegalStateException("jar --create of " + buildDir().resolve("classes") + " exited " + rc);
      }
      appJarPacked = true;
    }
    return jar;
  }

  /** The environment every script run gets: the test build's jars and a loopback Spark. */
  static Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("DSSYNC_BUILD_DIR", buildDir().toString());
    env.put("DSSYNC_APP_JAR", appJar().toString());
    env.put("DSSYNC_ENGINE_CACHE_DIR", buildDir().resolve("djl-cache").toString());
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    return env;
  }

  /**
   * The environment for {@code standalone-cluster} and the jobs submitted to it: {@link #env()} plus
   * {@code workers} workers of {@code cores} cores and {@code memory} each, state in
   * {@code clusterDir}, master and web UIs on ports free now.
   */
  static Map<String, String> standaloneEnv(Path clusterDir, int workers, int cores, String memory) {
    Map<String, String> env = env();
    env.put("DSSYNC_CLUSTER_DIR", clusterDir.toString());
    env.put("DSSYNC_MASTER_PORT", String.valueOf(freePort()));
    env.put("DSSYNC_UI_PORT", String.valueOf(freePort()));
    env.put("DSSYNC_CLUSTER_WORKERS", String.valueOf(workers));
    env.put("DSSYNC_WORKER_CORES", String.valueOf(cores));
    env.put("DSSYNC_WORKER_MEMORY", memory);
    return env;
  }

  /** The master URL of the cluster {@link #standaloneEnv} describes. */
  static String masterUrl(Map<String, String> standaloneEnv) {
    return "spark://127.0.0.1:" + standaloneEnv.get("DSSYNC_MASTER_PORT");
  }

  /** A TCP port free on loopback right now. */
  static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Runs {@code command} with {@code env} added, output to {@code log}; past {@code deadline} the
   * process and its children get SIGTERM and the test fails naming the command.
   */
  static Result run(List<String> command, Map<String, String> env, Duration deadline, Path log) {
    try {
      Files.createDirectories(log.getParent());
      ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command))
          .redirectErrorStream(true)
          .redirectOutput(log.toFile())
          .directory(repo().toFile());
      pb.environment().putAll(env);
      System.err.println("[script] " + String.join(" ", command) + "  (output: " + log + ")");
      Process p = pb.start();
      if (!p.waitFor(deadline.toSeconds(), TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        p.waitFor(30, TimeUnit.SECONDS);
        throw new AssertionError(command.get(0) + " did not finish within " + deadline.toSeconds()
            + " s; last output:\n" + tail(read(log), 40));
      }
      return new Result(p.exitValue(), read(log), log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while running " + command, e);
    }
  }

  static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String tail(String text, int lines) {
    String[] all = text.split("\n");
    return String.join("\n", java.util.Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
  }

  static File logDir(String name) {
    return buildDir().resolve("script-tests").resolve(name).toFile();
  }
}
