package io.dssync.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * DS-Sync across two racks of network namespaces whose inter-rack link is throttled with tc: four
 * Spark workers, each in its own namespace with its own address, a master and a driver in a control
 * namespace. The testbed script builds the network, runs the training and tears everything down.
 * Skipped, saying why, where network namespaces are not permitted.
 */
@Tag("cluster")
class NetnsTestbedTest {
  /** Namespaces of this test get their own prefix and subnet, apart from a hand-started testbed. */
  private static final String NAME = "dsst";
  /** 4 CNN workers, 15 seeded steps of 64 on the first 4,000 images: measured 0.6400 in 2 runs. */
  private static final double MIN_ACCURACY = 0.55;

  @Test
  void trainingAcrossTwoThrottledRacksLearnsAndLeavesNoNamespaceBehind() {
    Path logs = Scripts.logDir("netns").toPath();
    Map<String, String> env = Scripts.env();
    env.remove("SPARK_LOCAL_IP"); // the testbed sets each namespace's own address
    env.put("TESTBED_NAME", NAME);
    env.put("TESTBED_NET", "10.214");
    env.put("TESTBED_DIR", logs.resolve("testbed").toString());
    env.put("TESTBED_RACKS", "2");
    env.put("TESTBED_HOSTS_PER_RACK", "2");
    env.put("TESTBED_RACK_RATE", "100mbit");
    env.put("TESTBED_HOST_RATE", "1gbit");
    Scripts.Result run = Scripts.run(List.of(Scripts.script("testbed/netns-testbed").toString(), "run",
            Scripts.script("dssync-submit").toString(), "--deploy-mode", "client",
            "--total-executor-cores", "4", "--executor-cores", "1",
            "train", "--workers", "4", "--schedule", "random", "--group-size", "2",
            "--train-limit", "4000", "--test-limit", "1000", "--epochs", "1", "--steps-per-stage", "5",
            "--slot-wait-ms", "120000"),
        env, Duration.ofSeconds(900), logs.resolve("run.log"));
    Assumptions.assumeFalse(run.exitCode() == 77,
        () -> "skipped: " + run.output().lines().filter(l -> l.contains("not permitted")).findFirst()
            .orElse("network namespaces are not permitted here"));
    assertFalse(namespaces().contains(NAME + "-"), "namespaces left behind:\n" + namespaces());
    assertEquals(0, run.exitCode(), "the testbed run failed:\n" + Scripts.tail(run.output(), 60));
    assertTrue(run.output().contains("inter-rack links 100mbit"), "the testbed reported its limits");
    TrainSummary summary = TrainSummary.parse(run.output());
    System.err.println("[netns] " + summary.line());
    assertEquals(4, (int) summary.number("workers"));
    assertTrue(summary.number("final_test_accuracy") >= MIN_ACCURACY,
        "test accuracy " + summary.number("final_test_accuracy") + " < " + MIN_ACCURACY);
  }

  private static String namespaces() {
    Scripts.Result r = Scripts.run(List.of("ip", "netns", "list"), Map.of(), Duration.ofSeconds(30),
        Scripts.buildDir().resolve("script-tests/netns/ip-netns-list.log"));
    return r.output();
  }
}
