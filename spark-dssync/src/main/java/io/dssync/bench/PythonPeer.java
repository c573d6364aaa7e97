package io.dssync.bench;

import io.dssync.config.ProcessSettings;
import io.dssync.data.fetch.ProcessRunner;
import io.dssync.errors.ModelErrors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a PyTorch peer script shipped with the benchmarks (Gloo all-reduce, DDP training) with a
 * Python that can import torch: {@code $DSSYNC_PYTHON}, else {@code python3} on the PATH, else
 * Debian's {@code /usr/bin/python3} (python3-torch installs there, and a PATH python3 from a
 * version manager may lack it). Installs nothing; says how to when torch is missing.
 */
public final class PythonPeer {
  private final String name;
  private final String python;

  private PythonPeer(String name, String python) {
    this.name = name;
    this.python = python;
  }

  /** The peer {@code name}, or an error saying how to install PyTorch. */
  public static PythonPeer find(String name) {
    return find(name, ProcessSettings.PYTHON.parse(System.getenv(ProcessSettings.PYTHON.key())).map(List::of)
        .orElse(List.of("python3", "/usr/bin/python3")));
  }

  /** The first of {@code candidates} that imports torch.distributed. */
  public static PythonPeer find(String name, List<String> candidates) {
    for (String candidate : candidates) {
      if (importsTorch(candidate)) {
        return new PythonPeer(name, candidate);
      }
    }
    throw ModelErrors.peerUnavailable(name, String.join(", ", candidates));
  }

  /** Runs the resource script {@code script} with {@code args}; returns its standard output lines. */
  public List<String> run(String script, List<String> args, long timeoutS) {
    Path dir;
    try {
      dir = Files.createTempDirectory("dssync-peer-");
      Path file = dir.resolve(script);
      try (InputStream in = PythonPeer.class.getResourceAsStream(script)) {
        if (in == null) {
          throw new IllegalStateException("the benchmark script " + script + " is missing from the jar");
        }
        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      }
      List<String> command = new ArrayList<>(List.of(python, file.toString()));
      command.addAll(args);
      Path log = dir.resolve("stderr.log");
      Path output = dir.resolve("stdout.txt");
      // Both streams to files, so the deadline below holds even if the peer hangs with them open.
      Process process = new ProcessBuilder(command).directory(dir.toFile())
          .redirectError(log.toFile()).redirectOutput(output.toFile()).start();
      if (!process.waitFor(timeoutS, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw ModelErrors.peerFailed(name, "it did not finish in " + timeoutS + " s", ProcessRunner.tail(log, 5));
      }
      if (process.exitValue() != 0) {
        throw ModelErrors.peerFailed(name, "exit code " + process.exitValue(), ProcessRunner.tail(log, 5));
      }
      return Files.readAllLines(output, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("running the " + name + " peer", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ModelErrors.peerFailed(name, "interrupted", "");
    }
  }

  /** A free TCP port on 127.0.0.1 for the peer's rendezvous. */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean importsTorch(String python) {
    try {
      Process p = new ProcessBuilder(python, "-c", "import torch.distributed as d; assert d.is_available()")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
