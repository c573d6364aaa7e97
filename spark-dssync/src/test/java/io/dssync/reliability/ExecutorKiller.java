package io.dssync.reliability;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskStart;

/**
 * Kills, with SIGKILL, the executor JVM that runs the first task of the first job whose
 * description contains {@code jobMarker}, as soon as that task starts: a real executor loss in
 * the middle of a training stage. Local-cluster's worker then starts a replacement executor.
 */
final class ExecutorKiller extends SparkListener {
  private final SparkContext sc;
  private final String jobMarker;
  private volatile int targetStage = -1;
  private volatile boolean done;
  final List<String> log = new CopyOnWriteArrayList<>();

  ExecutorKiller(SparkContext sc, String jobMarker) {
    this.sc = sc;
    this.jobMarker = jobMarker;
  }

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted stage) {
    String description = stage.properties() == null ? null : stage.properties().getProperty("spark.job.description");
    if (!done && targetStage < 0 && description != null && description.contains(jobMarker)) {
      targetStage = stage.stageInfo().stageId();
    }
  }

  @Override
  public void onTaskStart(SparkListenerTaskStart task) {
    if (done || task.stageId() != targetStage) {
      return;
    }
    done = true;
    String executorId = task.taskInfo().executorId();
    Optional<ProcessHandle> jvm = executorJvm(sc.applicationId(), executorId);
    if (jvm.isEmpty()) {
      log.add("no process found for executor " + executorId);
      return;
    }
    long pid = jvm.get().pid();
    jvm.get().destroyForcibly();
    log.add("killed executor " + executorId + " (pid " + pid + ") while it ran task " + task.taskInfo().taskId()
        + " of stage " + task.stageId());
  }

  boolean killed() {
    return log.stream().anyMatch(s -> s.startsWith("killed"));
  }

  /**
   * The executor's JVM: its command line names the application and the executor id. Read from
   * /proc (Linux), because ProcessHandle.Info truncates very long command lines such as this one.
   */
  static Optional<ProcessHandle> executorJvm(String appId, String executorId) {
    return ProcessHandle.allProcesses().filter(p -> {
      String cmd = commandLine(p.pid());
      return cmd.contains("CoarseGrainedExecutorBackend") && cmd.contains("--executor-id " + executorId + " ")
          && cmd.contains(appId);
    }).findFirst();
  }

  private static String commandLine(long pid) {
    try {
      byte[] raw = java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc", Long.toString(pid), "cmdline"));
      return new String(raw, java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
    } catch (java.io.IOException | RuntimeException e) {
      return ""; // the process ended or is not readable: not ours
    }
  }
}
