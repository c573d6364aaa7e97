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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Elastic world size on a real standalone cluster of four one-core workers: a worker process is
 * SIGKILLed in the middle of training, so its executor dies and no other worker can offer a
 * replacement slot; with --min-workers 3 the training goes on with 3 of 4 workers, runs every
 * step of the 4-worker run exactly once, and keeps learning after the loss (final test accuracy
 * above the accuracy at the stage the worker died in). It trains with {@code --schedule auto}, whose
 * ranks plan twice: at the first stage for 4 workers, and in the retry of the stage that lost the
 * worker for the 3 left. Sized for the test suite: 24 steps of 4 (6 stages), a short --slot-wait-ms.
 *
 * <p>The accuracy comparison with an undisturbed 4-worker run (within 1 point) needs a second run
 * and is noisier at this size, so it runs by hand:
 * {@code mvn -pl spark-dssync -am -Pclusters test -Dtest=ElasticStandaloneTest -Ddssync.bench=true}.
 */
@Tag("cluster")
class ElasticStandaloneTest {
  private static final int WORKERS = 4;
  private static final int TRAIN_EXAMPLES = 3072;
  private static final int BATCH = 32;
  private static final int STEPS_PER_STAGE = 4;
  /** One epoch: the step count of the 4-worker run, which an elastic run keeps. */
  private static final long TOTAL_STEPS = TRAIN_EXAMPLES / (WORKERS * BATCH);
  private static final List<String> TRAIN = List.of("--model", "mlp", "--train-limit",
      String.valueOf(TRAIN_EXAMPLES), "--test-limit", "1000", "--epochs", "1", "--batch-size", String.valueOf(BATCH),
      "--steps-per-stage", String.valueOf(STEPS_PER_STAGE), "--slot-wait-ms", "8000",
      "--min-workers", "3", "--max-stage-attempts", "4", "--schedule", "auto");
  /** The plain progress line of a finished stage: stage number, stage count, end step, total steps. */
  private static final Pattern STAGE_LINE = Pattern.compile("\\[dssync\\] stage (\\d+)/(\\d+) .*? step (\\d+)/(\\d+) ");
  /** The test accuracy a progress line reports. */
  private static final Pattern TEST_ACCURACY = Pattern.compile("test acc (\\d\\.\\d+)");
  /** The step the 3 workers go on from. */
  private static final Pattern SHRUNK_FROM = Pattern.compile("continuing with 3 of 4 workers from step (\\d+)");
  /** What auto logs when the ranks of a stage made a plan for their number. */
  private static final String FIRST_PLAN = "first plan, made by the ranks";
  /** The worker dies once this stage is reported. */
  private static final int KILL_AFTER_STAGE = 2;

  @Test
  void trainingGoesOnWithThreeOfFourWorkersWhenAWorkerDiesForGood() throws Exception {
    boolean compare = Boolean.getBoolean("dssync.bench");
    Path logs = Scripts.logDir("elastic").toPath();
    Path clusterDir = logs.resolve("cluster");
    Map<String, String> env = Scripts.standaloneEnv(clusterDir, WORKERS, 1, "1200m");
    String cluster = Scripts.script("standalone-cluster").toString();
    Map<String, String> job = new HashMap<>(env);
    job.put("MASTER", Scripts.masterUrl(env));
    job.put("DEPLOY_MODE", "client");
    job.put("WORKERS", String.valueOf(WORKERS));
    List<String> command = new ArrayList<>(List.of(Scripts.script("examples/standalone.sh").toString()));
    command.addAll(TRAIN);
    try {
      Scripts.Result start = Scripts.run(List.of(cluster, "start"), env, Duration.ofSeconds(180),
          logs.resolve("start.log"));
      assertEquals(0, start.exitCode(), "standalone-cluster start failed:\n" + start.output());

      // Before the kill: afterwards the cluster has 3 slots and a 4-worker run cannot start.
      double reference = compare ? undisturbedAccuracy(command, job, logs) : Double.NaN;
      long started = System.nanoTime();
      Path log = logs.resolve("disturbed.log");
      Process run = start(command, job, log);
      awaitLine(run, log, "stage " + KILL_AFTER_STAGE + "/", Duration.ofSeconds(300));
      long workerPid = Long.parseLong(Files.readString(clusterDir.resolve("pids/worker-" + WORKERS + ".pid")).trim());
      System.err.println("[elastic] SIGKILL worker-" + WORKERS + " (pid " + workerPid + ") after stage "
          + KILL_AFTER_STAGE);
      new ProcessBuilder("kill", "-9", String.valueOf(workerPid)).inheritIO().start().waitFor();
      assertTrue(run.waitFor(300, TimeUnit.SECONDS), "the disturbed run did not finish:\n"
          + Scripts.tail(Scripts.read(log), 40));
      String output = Scripts.read(log);
      assertEquals(0, run.exitValue(), "the disturbed run failed:\n" + Scripts.tail(output, 60));
      System.err.printf("[elastic] disturbed run took %.0f s%n", (System.nanoTime() - started) / 1e9);
      for (String line : output.split("\n")) {
        if (line.contains("dssync elastic:") || line.contains("attempt") && line.contains("failed")
            || line.contains(FIRST_PLAN)) {
          System.err.println("[elastic] " + line);
        }
      }
      Matcher shrunk = SHRUNK_FROM.matcher(output);
      assertTrue(shrunk.find(), "no shrink to 3 workers in:\n" + Scripts.tail(output, 60));
      assertEquals(2, output.split(FIRST_PLAN, -1).length - 1, "auto plans for 4 workers, then for the 3 left:\n"
          + Scripts.tail(output, 60));
      String retried = FIRST_PLAN + " after the probe and run from step " + shrunk.group(1);
      assertTrue(output.contains(retried), "the retry of the stage that lost the worker plans for 3: no \""
          + retried + "\" in:\n" + Scripts.tail(output, 60));
      assertEquals(TOTAL_STEPS, (long) TrainSummary.parse(output).number("steps"), "total steps");
      List<Double> accuracies = assertEachStepOnce(output);
      double accuracy = TrainSummary.parse(output).number("final_test_accuracy");
      double atLoss = accuracies.get(KILL_AFTER_STAGE - 1);
      System.err.printf("[elastic] test accuracy after stage %d (4 workers) %.4f, final (3 of 4) %.4f%n",
          KILL_AFTER_STAGE, atLoss, accuracy);
      assertTrue(accuracy > atLoss, "no learning after the loss: final accuracy " + accuracy
          + " against " + atLoss + " after stage " + KILL_AFTER_STAGE);

      if (compare) {
        System.err.printf("[elastic] final test accuracy: undisturbed 4 workers %.4f, 3 of 4 after the loss %.4f%n",
            reference, accuracy);
        assertTrue(Math.abs(accuracy - reference) <= 0.01, "accuracy " + accuracy + " vs undisturbed " + reference);
      }
    } finally {
      Scripts.Result stop = Scripts.run(List.of(cluster, "stop"), env, Duration.ofSeconds(90),
          logs.resolve("stop.log"));
      assertEquals(0, stop.exitCode(), "standalone-cluster stop failed:\n" + stop.output());
    }
  }

  /** The final test accuracy of the same training without a loss (the by-hand comparison). */
  private static double undisturbedAccuracy(List<String> command, Map<String, String> job, Path logs) {
    Scripts.Result undisturbed = Scripts.run(command, job, Duration.ofSeconds(300), logs.resolve("undisturbed.log"));
    assertEquals(0, undisturbed.exitCode(), "the undisturbed run failed:\n" + Scripts.tail(undisturbed.output(), 60));
    assertEachStepOnce(undisturbed.output());
    return TrainSummary.parse(undisturbed.output()).number("final_test_accuracy");
  }

  /**
   * No step lost or counted twice: every stage 1..S reported exactly once, in order, each ending
   * K steps after the one before, the last at the run's total. Returns each stage's test accuracy.
   */
  private static List<Double> assertEachStepOnce(String output) {
    long totalSteps = TOTAL_STEPS;
    List<long[]> stages = new ArrayList<>();
    List<Double> accuracies = new ArrayList<>();
    for (String line : output.split("\n")) {
      Matcher m = STAGE_LINE.matcher(line);
      if (m.find()) {
        stages.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
            Long.parseLong(m.group(4))});
        Matcher acc = TEST_ACCURACY.matcher(line);
        assertTrue(acc.find(), "no test accuracy (evaluation after every stage) in: " + line);
        accuracies.add(Double.parseDouble(acc.group(1)));
      }
    }
    long expectedStages = (totalSteps + STEPS_PER_STAGE - 1) / STEPS_PER_STAGE;
    assertEquals(expectedStages, stages.size(), "stage lines in:\n" + Scripts.tail(output, 60));
    for (int i = 0; i < stages.size(); i++) {
      long[] s = stages.get(i);
      assertEquals(i + 1, s[0], "stage order");
      assertEquals(expectedStages, s[1], "stage count");
      assertEquals(Math.min(totalSteps, (i + 1L) * STEPS_PER_STAGE), s[2], "end step of stage " + (i + 1));
      assertEquals(totalSteps, s[3], "total steps");
    }
    return accuracies;
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
