package io.dssync.data.fetch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the external tools fetchers rely on (dpkg, apt-get, npm, tar, bible). */
public final class ProcessRunner {
  private ProcessRunner() {}

  /** Runs a command with output to {@code log}: a file, so a chatty command cannot block on a pipe. */
  public static int run(List<String> command, Path dir, Path log, long timeoutS) throws IOException {
    Process process = new ProcessBuilder(command).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      if (!process.waitFor(timeoutS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(String.join(" ", command) + " did not finish in " + timeoutS + " s");
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + String.join(" ", command), e);
    }
  }

  /** The last three lines of a log, for error messages. */
  public static String tail(Path log) {
    return tail(log, 3);
  }

  /** The last {@code count} lines of a log on one line, for error messages. */
  public static String tail(Path log, int count) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - count), lines.size())).trim();
    } catch (IOException e) {
      return "no output";
    }
  }
}
