package io.dssync.schedule;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.Errors;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which executor hosts share a rack (a fast network). Either explicit host lists ({@code --racks
 * "h1,h2;h3,h4"}: racks separated by ';', hosts by ',') or, when none are given, one rack per
 * distinct executor host. Turned into a rack number per rank once the hosts of a stage's ranks are
 * known (they are only known when the barrier tasks run).
 */
public final class RackLayout implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Explicit racks in order; empty = one rack per host. */
  private final List<List<String>> racks;

  private RackLayout(List<List<String>> racks) {
    this.racks = racks;
  }

  /** One rack per distinct executor host. */
  public static RackLayout byHost() {
    return new RackLayout(List.of());
  }

  public static RackLayout of(List<List<String>> racks) {
    List<List<String>> copy = new ArrayList<>();
    racks.forEach(r -> copy.add(List.copyOf(r)));
    return new RackLayout(List.copyOf(copy));
  }

  /** Parses {@code --racks}: empty = by host; else "h1,h2;h3,h4" with no host twice. */
  public static RackLayout parse(String text) {
    String trimmed = text == null ? "" : text.trim();
    if (trimmed.isEmpty()) {
      return byHost();
    }
    List<List<String>> racks = new ArrayList<>();
    Map<String, Integer> seen = new LinkedHashMap<>();
    for (String rackText : trimmed.split(";", -1)) {
      List<String> hosts = new ArrayList<>();
      for (String host : rackText.split(",", -1)) {
        String h = host.trim();
        if (h.isEmpty()) {
          throw Errors.invalidSetting("--racks", text, "a rack or host name is empty",
              "Write racks separated by ';' and hosts by ',', e.g. \"10.0.1.11,10.0.1.12;10.0.2.11,10.0.2.12\".");
        }
        if (seen.putIfAbsent(h, racks.size()) != null) {
          throw Errors.invalidSetting("--racks", text, "host " + h + " is listed twice",
              "List every executor host in exactly one rack.");
        }
        hosts.add(h);
      }
      racks.add(hosts);
    }
    return new RackLayout(racks);
  }

  /** True if {@code text} parses; for validating the setting. */
  public static boolean isValid(String text) {
    try {
      parse(text);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  public boolean isByHost() {
    return racks.isEmpty();
  }

  /**
   * The rack number (0..R-1, numbered in order of first appearance by rank) of each rank, given the
   * host each rank runs on. An executor host in no listed rack is an error naming it.
   */
  public int[] rackOfRank(String[] hostOfRank) {
    Map<String, Integer> listed = new LinkedHashMap<>();
    for (int r = 0; r < racks.size(); r++) {
      for (String host : racks.get(r)) {
        listed.put(host, r);
      }
    }
    Map<Object, Integer> number = new LinkedHashMap<>();
    int[] out = new int[hostOfRank.length];
    for (int rank = 0; rank < hostOfRank.length; rank++) {
      String host = hostOfRank[rank];
      Object key;
      if (isByHost()) {
        key = host;
      } else {
        key = listed.get(host);
        if (key == null) {
          throw unlisted("rank " + rank + " runs on executor host " + host + ", which is", host);
        }
      }
      out[rank] = number.computeIfAbsent(key, k -> number.size());
    }
    return out;
  }

  /**
   * Fails, naming them, if any of {@code executorHosts} is in none of the racks; the driver checks
   * the hosts it knows before a stage, so a missing host costs no sharding and no task failures.
   */
  public void requireListed(Collection<String> executorHosts) {
    if (isByHost()) {
      return;
    }
    List<String> missing = new ArrayList<>();
    for (String host : executorHosts) {
      if (racks.stream().noneMatch(r -> r.contains(host))) {
        missing.add(host);
      }
    }
    if (!missing.isEmpty()) {
      String names = String.join(", ", missing);
      throw unlisted("executor host" + (missing.size() == 1 ? " " + names + " is" : "s " + names + " are"), names);
    }
  }

  private DsSyncException unlisted(String whoIs, String hosts) {
    return Errors.invalidSetting("--racks", this, whoIs + " in none of the racks",
        "Add " + hosts + " to one of the racks, or leave --racks empty to use one rack per host.");
  }

  @Override
  public String toString() {
    if (isByHost()) {
      return "(one rack per host)";
    }
    List<String> parts = new ArrayList<>();
    racks.forEach(r -> parts.add(String.join(",", r)));
    return String.join(";", parts);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RackLayout other && other.racks.equals(racks);
  }

  @Override
  public int hashCode() {
    return racks.hashCode();
  }
}
