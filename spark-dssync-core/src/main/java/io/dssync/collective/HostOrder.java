package io.dssync.collective;

import java.util.Comparator;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The ranks ordered by their executors' hosts, then by rank: ranks of one host, and of hosts with
 * neighbouring addresses (a rack's subnet), come next to each other. A ring in this order crosses
 * between two such sets of hosts twice, where a ring in rank order (Spark places barrier tasks on
 * executors in no set order) may cross at every hop.
 */
public final class HostOrder {
  private HostOrder() {}

  /** The ranks 0..hosts.length-1 sorted by {@link #key} of their host, then by rank. */
  public static int[] byHost(String[] hosts) {
    return IntStream.range(0, hosts.length).boxed()
        .sorted(Comparator.comparing((Integer r) -> key(hosts[r])).thenComparing(r -> r))
        .mapToInt(Integer::intValue).toArray();
  }

  /** Sort key of a host: an IPv4 address's octets as numbers (10.0.2.x before 10.0.10.x), else the name. */
  static String key(String host) {
    if (host.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
      StringBuilder key = new StringBuilder();
      for (String octet : host.split("\\.")) {
        key.append(String.format(Locale.ROOT, "%03d.", Integer.parseInt(octet)));
      }
      return key.toString();
    }
    return host;
  }
}
