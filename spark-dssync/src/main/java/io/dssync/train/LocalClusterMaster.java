package io.dssync.train;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code local-cluster[n,c,m]} master URL: n executor JVMs of c cores and m MiB each, on this
 * machine. Parsed as Spark parses it (spaces allowed around the numbers).
 */
public record LocalClusterMaster(int executors, int coresPerExecutor, int memoryMb) {
  private static final Pattern URL = Pattern.compile("local-cluster\\[\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,\\s*(\\d+)\\s*]");

  /** The master's numbers, or empty when {@code master} is not a local-cluster URL. */
  public static Optional<LocalClusterMaster> parse(String master) {
    Matcher m = URL.matcher(master);
    return m.matches()
        ? Optional.of(new LocalClusterMaster(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3))))
        : Optional.empty();
  }

  /** The task slots of all executors together. */
  public int cores() {
    return executors * coresPerExecutor;
  }
}
