package io.dssync.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.replica.NativeAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The example jobs: local mode runs for real; Kubernetes cannot run here, so it is checked for syntax
 * and for the spark-submit call it makes through an installation's bin/spark-submit (a stand-in
 * that records its arguments), as is the YARN example's installation path ({@link YarnSubmitTest}
 * runs the YARN example for real) and {@code DSSYNC_SHARED_JARS} ({@link NetnsTestbedTest} trains
 * with it for real).
 */
class ExampleJobsTest {
  private static final List<String> SCRIPTS = List.of("dssync-submit", "standalone-cluster", "lib/layout.sh",
      "lib/malloc-env.sh",
      "testbed/netns-testbed", "examples/local.sh", "examples/standalone.sh", "examples/yarn.sh",
      "examples/kubernetes.sh", "examples/your-table.sh", "bench/beyond-the-paper");

  @Test
  void everySubmitScriptParses() {
    for (String script : SCRIPTS) {
      Scripts.Result r = Scripts.run(List.of("bash", "-n", Scripts.script(script).toString()), Map.of(),
          Duration.ofSeconds(30),
          Scripts.buildDir().resolve("script-tests/syntax/" + script.replace('/', '_') + ".log"));
      assertEquals(0, r.exitCode(), script + " has a syntax error:\n" + r.output());
    }
  }

  @Test
  void localModeExampleTrainsThroughSparkSubmit() {
    Map<String, String> env = Scripts.env();
    env.put("WORKERS", "2");
    Scripts.Result r = Scripts.run(List.of(Scripts.script("examples/local.sh").toString(), "--model", "mlp",
            "--train-limit", "2000", "--test-limit", "500", "--epochs", "1", "--batch-size", "32",
            "--steps-per-stage", "10"),
        env, Duration.ofSeconds(600), Scripts.buildDir().resolve("script-tests/local/job.log"));
    assertEquals(0, r.exitCode(), "local example failed:\n" + Scripts.tail(r.output(), 60));
    TrainSummary summary = TrainSummary.parse(r.output());
    System.err.println("[local] " + summary.line());
    assertEquals(2, (int) summary.number("workers"));
    // MLP, 31 seeded steps of 32 per worker on 2,000 images: measured 0.7340.
    assertTrue(summary.number("final_test_accuracy") >= 0.6, "accuracy " + summary.fields());
    double wait = summary.number("sync_wait_ms_per_step");
    assertTrue(wait >= 0 && wait <= summary.number("sync_ms_per_step"),
        "the wait for peers is part of the sync: " + summary.fields());
  }

  @Test
  void yarnExampleHandsSparkSubmitTheJarThePropertiesAndStaticAllocation() {
    String args = recordedSubmit("examples/yarn.sh", Map.of("HADOOP_CONF_DIR", "/nonexistent/hadoop-conf"));
    assertTrue(args.contains("--master yarn"), args);
    assertTrue(args.contains("--num-executors 8"), args);
    assertCommonSubmitArgs(args);
  }

  @Test
  void kubernetesExampleHandsSparkSubmitTheImageAndExecutorCount() {
    String args = recordedSubmit("examples/kubernetes.sh",
        Map.of("K8S_API", "https://k8s.invalid:6443", "IMAGE", "example/spark:4.1.0-java17"));
    assertTrue(args.contains("--master k8s://https://k8s.invalid:6443"), args);
    assertTrue(args.contains("spark.kubernetes.container.image=example/spark:4.1.0-java17"), args);
    assertTrue(args.contains("spark.executor.instances=8"), args);
    assertCommonSubmitArgs(args);
  }

  @Test
  void theDriverGetsTheMallocSettingsInEveryDeployModeAndAValueTheUserSetWins() {
    List<String> unset = List.of("env", "-u", "MALLOC_MMAP_THRESHOLD_", "-u", "MALLOC_TRIM_THRESHOLD_", "-u",
        "MALLOC_TOP_PAD_");
    String out = recordedRun("examples/yarn.sh", unset, Map.of("HADOOP_CONF_DIR", "/nonexistent/hadoop-conf"));
    for (String setting : NativeAllocator.shellLine().split(" ")) {
      assertTrue(out.contains("driver-env " + setting), "client-mode driver's environment lacks " + setting
          + ":\n" + out);
      assertTrue(out.contains("--conf spark.yarn.appMasterEnv." + setting), out);
      assertTrue(out.contains("--conf spark.kubernetes.driverEnv." + setting), out);
    }
    String own = recordedRun("examples/yarn.sh", List.of("env", "-u", "MALLOC_MMAP_THRESHOLD_", "-u",
        "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_=1048576"), Map.of("HADOOP_CONF_DIR", "/nonexistent/hadoop-conf"));
    assertTrue(own.contains("driver-env MALLOC_TOP_PAD_=1048576"), own);
    assertTrue(own.contains("--conf spark.yarn.appMasterEnv.MALLOC_TOP_PAD_=1048576"), own);
  }

  @Test
  void sharedJarsReachExecutorsAsLocalUris() {
    String args = recordedSubmit("examples/standalone.sh", Map.of("DSSYNC_SHARED_JARS", "1", "WORKERS", "8"));
    String jars = args.replaceAll(".* --jars (\\S+) .*", "$1");
    assertTrue(jars.contains("pytorch-engine-"), args);
    for (String jar : jars.split(",")) {
      assertTrue(jar.startsWith("local:/"), "a jar executors would download: " + jar + " in " + args);
    }
    assertCommonSubmitArgs(args);
  }

  private static void assertCommonSubmitArgs(String args) {
    assertTrue(args.contains("--class io.dssync.cli.Main"), args);
    assertTrue(args.contains("dssync-defaults.conf"), args);
    assertTrue(args.contains("pytorch-engine-"), "DJL travels as --jars: " + args);
    assertTrue(args.contains(Scripts.appJar() + " train --workers 8"), "app jar then its arguments: " + args);
  }

  /** The spark-submit line of {@link #recordedRun}. */
  private static String recordedSubmit(String example, Map<String, String> extraEnv) {
    String out = recordedRun(example, List.of(), extraEnv);
    return out.lines().filter(l -> l.startsWith("spark-submit ")).findFirst()
        .orElseThrow(() -> new AssertionError(example + " did not call $SPARK_HOME/bin/spark-submit:\n" + out));
  }

  /**
   * Runs an example (after {@code prefix}, such as an env command) with SPARK_HOME pointing at an
   * installation whose spark-submit prints its arguments and, as "driver-env" lines, the malloc
   * settings of the environment it was started with.
   */
  private static String recordedRun(String example, List<String> prefix, Map<String, String> extraEnv) {
    Path home = Scripts.buildDir().resolve("script-tests/fake-spark-home");
    Path submit = home.resolve("bin/spark-submit");
    try {
      Files.createDirectories(submit.getParent());
      Files.writeString(submit, "#!/usr/bin/env bash\necho \"spark-submit $*\"\n"
          + "env | grep '^MALLOC_' | sed 's/^/driver-env /'\n");
      Files.setPosixFilePermissions(submit, PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> env = new HashMap<>(Scripts.env());
    env.put("SPARK_HOME", home.toString());
    env.putAll(extraEnv);
    List<String> command = new ArrayList<>(prefix);
    command.add(Scripts.script(example).toString());
    Scripts.Result r = Scripts.run(command, env, Duration.ofSeconds(60),
        Scripts.buildDir().resolve("script-tests/recorded/" + example.replace('/', '_') + ".log"));
    assertEquals(0, r.exitCode(), example + " failed:\n" + r.output());
    return r.output();
  }
}
