package io.dssync.notebooks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Finds Debian's {@code jupyter} (the one package jupyter-core installs), not whatever python is
 * first on PATH: a pyenv interpreter there may have no Jupyter. {@code DSSYNC_JUPYTER} overrides.
 */
final class JupyterLocator {
  private JupyterLocator() {}

  static String find() {
    String override = System.getenv("DSSYNC_JUPYTER");
    if (override != null && !override.isBlank()) {
      return override;
    }
    String listed = run("dpkg", "-L", "jupyter-core");
    if (listed == null) {
      return null;
    }
    for (String line : listed.split("\n")) {
      if (line.endsWith("/bin/jupyter") && Files.isExecutable(Path.of(line))) {
        String version = run(line, "nbconvert", "--version");
        return version == null ? null : line;
      }
    }
    return null;
  }

  /** stdout of a short command, or null when it cannot run or fails. */
  private static String run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      return p.exitValue() == 0 ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
