package io.dssync.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of the test build in a JVM of its own, as the launcher runs dssync (its module
 * flags, the build's classes and jars): for what must not happen in the test JVM, such as another
 * Java version or a process the kernel may kill.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** Exit code and the merged standard output and error. */
  public record Run(int exitCode, String output) {}

  /** The JDK running the tests. */
  public static Path thisJdk() {
    return Path.of(System.getProperty("java.home"));
  }

  /** Runs {@code mainClass} with {@code args} on {@code jdk}; fails the test after {@code deadline}. */
  public static Run run(Path jdk, Duration deadline, String mainClass, String... args)
      throws IOException, InterruptedException {
    return run(jdk, deadline, List.of(), mainClass, args);
  }

  /** Like {@link #run(Path, Duration, String, String...)} with Java options such as {@code -Xmx700m}. */
  public static Run run(Path jdk, Duration deadline, List<String> javaOptions, String mainClass, String... args)
      throws IOException, InterruptedException {
    Path build = Path.of(Objects.requireNonNull(System.getProperty("dssync.buildDir"), "run through Maven"));
    String classPath = String.join(File.pathSeparator, build.resolve("test-classes").toString(),
        build.resolve("classes").toString(), build.resolve("lib") + File.separator + "*");
    List<String> command = new ArrayList<>(List.of(jdk.resolve("bin/java").toString()));
    Path moduleFlags = build.getParent().getParent().resolve("submit-scripts/java-module-flags");
    command.addAll(List.of(Files.readString(moduleFlags).trim().split("\\s+")));
    command.addAll(javaOptions);
    command.addAll(List.of("-cp", classPath, mainClass));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process p = builder.start();
    // Read while it runs, so a full pipe cannot stall it; the deadline bounds the wait.
    CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
      try {
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    if (!p.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(mainClass + " on " + jdk + " did not end within " + deadline.toSeconds() + " s");
    }
    return new Run(p.exitValue(), output.join());
  }
}
