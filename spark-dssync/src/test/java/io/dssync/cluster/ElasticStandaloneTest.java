package io.dssync.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Elastic world size on a real standalone cluster of four one-core workers: a worker process is
 * SIGKILLed in the middle of training, so its executor dies and no other worker can offer a
 * replacement slot; with --min-workers 3 the training goes on with 3 of 4 workers and must end
 * within 1 point of test accuracy of an undisturbed 4-worker run on the same cluster, data and seed.
 */
class ElasticStandaloneTest {
  private static final List<String> TRAIN = List.of("--model", "mlp", "--train-limit", "8000",
      "--test-limit", "2000", "--epochs", "2", "--steps-per-stage", "8", "--slot-wait-ms", "20000",
      "--min-workers", "3", "--max-stage-attempts", "4");

  @Test
  void trainingGoesOnWithThreeOfFourWorkersWhenAWorkerDiesForGood() throws Exception {
    Path logs = Scripts.logDir("elastic").toPath();
    Map<String, String> env = Scripts.env();
    int masterPort = Scripts.freePort();
    Path clusterDir = logs.resolve("cluster");
    env.put("DSSYNC_CLUSTER_DIR", clusterDir.toString());
    env.put("DSSYNC_MASTER_PORT", String.valueOf(masterPort));
    env.put("DSSYNC_UI_PORT", String.valueOf(Scripts.freePort()));
    env.put("DSSYNC_CLUSTER_WORKERS", "4");
    env.put("DSSYNC_WORKER_CORES", "1");
    env.put("DSSYNC_WORKER_MEMORY", "1200m");
    String cluster = Scripts.script("standalone-cluster").toString();
    Map<String, String> job = new HashMap<>(env);
    job.put("MASTER", "spark://127.0.0.1:" + masterPort);
    job.put("DEPLOY_MODE", "client");
    job.put("WORKERS", "4");
    List<String> command = new ArrayList<>(List.of(Scripts.script("examples/standalone.sh").toString()));
    command.addAll(TRAIN);
    try {
      Scripts.Result start = Scripts.run(List.of(cluster, "start"), env, Duration.ofSeconds(180),
          logs.resolve("start.log"));
      assertEquals(0, start.exitCode(), "standalone-cluster start failed:\n" + start.output());

      Scripts.Result undisturbed = Scripts.run(command, job, Duration.ofSeconds(900), logs.resolve("undisturbed.log"));
      assertEquals(0, undisturbed.exitCode(), "the undisturbed run failed:\n" + Scripts.tail(undisturbed.output(), 60));
      double reference = TrainSummary.parse(undisturbed.output()).number("final_test_accuracy");

      Path log = logs.resolve("disturbed.log");
      Process run = start(command, job, log);
      awaitLine(run, log, "stage 3/", Duration.ofSeconds(600));
      long workerPid = Long.parseLong(Files.readString(clusterDir.resolve("pids/worker-4.pid")).trim());
      System.err.println("[elastic] SIGKILL worker-4 (pid " + workerPid + ") after stage 3");
      new ProcessBuilder("kill", "-9", String.valueOf(workerPid)).inheritIO().start().waitFor();
      assertTrue(run.waitFor(900, TimeUnit.SECONDS), "the disturbed run did not finish:\n"
          + Scripts.tail(Scripts.read(log), 40));
      String output = Scripts.read(log);
      assertEquals(0, run.exitValue(), "the disturbed run failed:\n" + Scripts.tail(output, 60));
      double accuracy = TrainSummary.parse(output).number("final_test_accuracy");
      for (String line : output.split("\n")) {
        if (line.contains("dssync elastic:") || line.contains("attempt") && line.contains("failed")) {
          System.err.println("[elastic] " + line);
        }
      }
      System.err.printf("[elastic] final test accuracy: undisturbed 4 workers %.4f, 3 of 4 after the loss %.4f%n",
          reference, accuracy);
      assertTrue(output.contains("continuing with 3 of 4 workers"), "no shrink to 3 workers in:\n"
          + Scripts.tail(output, 60));
      assertTrue(Math.abs(accuracy - reference) <= 0.01, "accuracy " + accuracy + " vs undisturbed " + reference);
    } finally {
      Scripts.Result stop = Scripts.run(List.of(cluster, "stop"), env, Duration.ofSeconds(90),
          logs.resolve("stop.log"));
      assertEquals(0, stop.exitCode(), "standalone-cluster stop failed:\n" + stop.output());
    }
  }

  private static Process start(List<String> command, Map<String, String> env, Path log) {
    try {
      Files.createDirectories(log.getParent());
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
          .directory(Scripts.repo().toFile());
      pb.environment().putAll(env);
      return pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until {@code log} contains {@code text}; fails if the process ends first or the deadline passes. */
  private static void awaitLine(Process p, Path log, String text, Duration deadline) throws InterruptedException {
    long end = System.nanoTime() + deadline.toNanos();
    while (!Scripts.read(log).contains(text)) {
      if (!p.isAlive() || System.nanoTime() > end) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        throw new AssertionError("'" + text + "' never appeared; output:\n" + Scripts.tail(Scripts.read(log), 40));
      }
      Thread.sleep(200);
    }
  }
}
