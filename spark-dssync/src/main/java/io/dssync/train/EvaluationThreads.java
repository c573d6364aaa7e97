package io.dssync.train;

import io.dssync.errors.Errors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many intra-op threads the driver's evaluation between stages may use. No stage runs then, so
 * in local mode the cores Spark gave the tasks are idle ({@code local[N]}: N; {@code local-cluster[n,c,m]}:
 * the executors' n x c, on this machine). Elsewhere {@code spark.driver.cores} when set; unset, a
 * cluster-mode driver has the one core its cluster manager gave it (Spark's default), and a
 * client-mode driver the machine it was started on, where Spark reserves no cores for it. Never
 * more than this JVM sees. Evaluating the CNN's 10,000 test images on one thread took about 3 s per
 * stage on local-cluster[2,1,3072], as long as the stage's 100 steps.
 */
final class EvaluationThreads {
  private static final Pattern LOCAL = Pattern.compile("local(?:\\[(\\*|\\d+)(?:,\\s*\\d+)?])?");

  private EvaluationThreads() {}

  /**
   * @param master the Spark master URL
   * @param deployMode {@code spark.submit.deployMode} ({@code client} when unset)
   * @param driverCores {@code spark.driver.cores} as set, or null when unset (read only off local
   *     masters, which ignore it)
   * @param available the processors this JVM sees
   */
  static int of(String master, String deployMode, String driverCores, int available) {
    int cores;
    Matcher local = LOCAL.matcher(master);
    java.util.Optional<LocalClusterMaster> cluster = LocalClusterMaster.parse(master);
    if (local.matches()) {
      String n = local.group(1);
      cores = n == null ? 1 : n.equals("*") ? available : Integer.parseInt(n);
    } else if (cluster.isPresent()) {
      cores = cluster.get().cores();
    } else if (driverCores != null) {
      cores = driverCores(driverCores);
    } else {
      cores = "cluster".equals(deployMode) ? 1 : available;
    }
    return Math.max(1, Math.min(cores, available));
  }

  private static int driverCores(String value) {
    try {
      int cores = Integer.parseInt(value.trim());
      if (cores >= 1) {
        return cores;
      }
    } catch (NumberFormatException e) {
      // reported below with the value
    }
    throw Errors.invalidSetting("spark.driver.cores", value, "a whole number of cores, at least 1",
        "Set it to the cores the driver may use (default 1).");
  }
}
