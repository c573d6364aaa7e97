package io.dssync.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * TorchScript files for tests, made the way a user makes them: the repository's export helper
 * ({@code python/dssync_export.py}) run by Debian's python3-torch, which imports only from
 * {@code /usr/bin/python3}. CI installs it (.ci/run); elsewhere the tests that need it are skipped.
 */
public final class TorchScripts {
  public static final String PYTHON = "/usr/bin/python3";

  private TorchScripts() {}

  /** The repository's root (the parent of the module's build folder's parent). */
  public static Path repo() {
    return Path.of(Objects.requireNonNull(System.getProperty("dssync.buildDir"),
        "system property dssync.buildDir is not set; run the tests through Maven")).toAbsolutePath()
        .getParent().getParent();
  }

  /** Skips the calling test unless PyTorch imports; under CI (which installs it) a missing PyTorch fails. */
  public static void requireTorch() {
    boolean ok = run(List.of(PYTHON, "-c", "import torch"), 120, false).exit == 0;
    if (!ok && System.getenv("CI") != null) {
      fail(PYTHON + " cannot import torch: .ci/run installs python3-torch");
    }
    Assumptions.assumeTrue(ok, PYTHON + " cannot import torch (apt-get install python3-torch)");
  }

  /**
   * Exports {@code module} ("residual_cnn:ResidualCnn" from python/examples) with JSON keyword {@code args}
   * to {@code out}: input shape like "1,28,28", output width {@code outputs}, optional {@code loss}.
   */
  public static Path export(Path out, String module, String args, String inputShape, int outputs, String loss) {
    List<String> command = new ArrayList<>(List.of(PYTHON, repo().resolve("python/dssync_export.py").toString(),
        "--module", module, "--args", args, "--input-shape", inputShape, "--output-size",
        Integer.toString(outputs), "--module-path", repo().resolve("python/examples").toString(),
        "--out", out.toString()));
    if (loss != null) {
      command.addAll(List.of("--loss", loss));
    }
    Result r = run(command, 300, true);
    assertEquals(0, r.exit, "export failed: " + r.output);
    return out;
  }

  /** Runs python/examples/{@code script} with {@code args}; fails the test on a non-zero exit. */
  public static String example(String script, List<String> args, long timeoutS) {
    List<String> command = new ArrayList<>(List.of(PYTHON, repo().resolve("python/examples").resolve(script)
        .toString()));
    command.addAll(args);
    Result r = run(command, timeoutS, true);
    assertEquals(0, r.exit, script + " failed: " + r.output);
    return r.output;
  }

  /** What a command printed (both streams) and its exit code. */
  public record Result(int exit, String output) {}

  /** Runs {@code command} with a deadline; its output goes through a file so the deadline holds. */
  public static Result run(List<String> command, long timeoutS, boolean failOnTimeout) {
    try {
      Path log = Files.createTempFile("dssync-python", ".log");
      try {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          if (failOnTimeout) {
            fail(command.get(1) + " did not finish in " + timeoutS + " s");
          }
          return new Result(-1, "timed out");
        }
        return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
      } finally {
        Files.deleteIfExists(log);
      }
    } catch (IOException e) {
      return new Result(-1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(-1, "interrupted");
    }
  }
}
