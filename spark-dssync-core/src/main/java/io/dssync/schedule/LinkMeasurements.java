package io.dssync.schedule;

import io.dssync.errors.DataErrors;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one run of the link probe measured: for every ordered pair of ranks (i fetching from j) the
 * per-message latency and the bandwidth of our transport, and the host of every rank. Pure data
 * plus the derived views the auto planner needs (racks by bandwidth, uplink capacity).
 *
 * @param hosts executor host of each rank
 * @param latencyMs [i][j]: time of a small message from j to i (ms); diagonal unused, 0 when not measured
 * @param bandwidthMBps [i][j]: bandwidth from j to i (MB/s of 1e6 bytes); diagonal unused, 0 when not
 *     measured (a pair a later probe did not meet): the views below leave such a pair out, but
 *     {@link AutoPlanner}'s step cost reads every pair, so plans come from probes of every pair only
 */
public record LinkMeasurements(String[] hosts, double[][] latencyMs, double[][] bandwidthMBps)
    implements Serializable {
  /** The gap (ratio) between slow and fast links that makes racks; below it the network counts as flat. */
  static final double RACK_CONTRAST = 3;

  public LinkMeasurements {
    int n = hosts.length;
    if (latencyMs.length != n || bandwidthMBps.length != n) {
      throw DataErrors.lengthMismatch("link measurements (ranks)", n, Math.min(latencyMs.length, bandwidthMBps.length));
    }
  }

  public int workers() {
    return hosts.length;
  }

  /**
   * Mean bandwidth between two hosts, over both directions and every rank pair on them; ranks that
   * share a host give that host's own entry ("h<->h"), so a one-host cluster has a link to watch too.
   */
  public Map<String, Double> hostPairBandwidth() {
    Map<String, double[]> sums = new LinkedHashMap<>();
    for (int i = 0; i < workers(); i++) {
      for (int j = 0; j < workers(); j++) {
        if (i != j && bandwidthMBps[i][j] > 0) {
          double[] s = sums.computeIfAbsent(pairKey(hosts[i], hosts[j]), k -> new double[2]);
          s[0] += bandwidthMBps[i][j];
          s[1]++;
        }
      }
    }
    Map<String, Double> out = new LinkedHashMap<>();
    sums.forEach((k, s) -> out.put(k, s[0] / s[1]));
    return out;
  }

  static String pairKey(String a, String b) {
    return a.compareTo(b) <= 0 ? a + "<->" + b : b + "<->" + a;
  }

  /**
   * Racks by measured bandwidth: the host pairs' bandwidths, sorted, split at the largest ratio
   * between neighbours, and hosts joined by links above that split share a rack. When no neighbour
   * is {@link #RACK_CONTRAST} times the one below it, the network is flat: one rack. The split
   * follows the gap between the slow and the fast links rather than the extremes, so one slow
   * cross-rack reading cannot join two racks, nor split a flat network.
   */
  public RackLayout racks() {
    List<String> distinct = new ArrayList<>();
    for (String h : hosts) {
      if (!distinct.contains(h)) {
        distinct.add(h);
      }
    }
    Map<String, Double> links = new LinkedHashMap<>(hostPairBandwidth());
    links.keySet().removeIf(k -> k.split("<->")[0].equals(k.split("<->")[1])); // a host's own entry
    double[] sorted = links.values().stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double widest = 1;
    double threshold = 0;
    for (int i = 1; i < sorted.length; i++) {
      if (sorted[i] > widest * sorted[i - 1]) {
        widest = sorted[i] / sorted[i - 1];
        threshold = Math.sqrt(sorted[i] * sorted[i - 1]);
      }
    }
    boolean flat = widest < RACK_CONTRAST;
    int[] parent = new int[distinct.size()];
    for (int i = 0; i < parent.length; i++) {
      parent[i] = i;
    }
    for (int a = 0; a < distinct.size(); a++) {
      for (int b = a + 1; b < distinct.size(); b++) {
        Double bw = links.get(pairKey(distinct.get(a), distinct.get(b)));
        if (flat || bw != null && bw >= threshold) {
          parent[find(parent, a)] = find(parent, b);
        }
      }
    }
    Map<Integer, List<String>> racks = new LinkedHashMap<>();
    for (int a = 0; a < distinct.size(); a++) {
      racks.computeIfAbsent(find(parent, a), k -> new ArrayList<>()).add(distinct.get(a));
    }
    return RackLayout.of(new ArrayList<>(racks.values()));
  }

  private static int find(int[] parent, int x) {
    while (parent[x] != x) {
      x = parent[x] = parent[parent[x]];
    }
    return x;
  }

  /**
   * Each rack's uplink capacity (MB/s): in every probe round, the pairs leaving a rack shared its
   * uplink, so their bandwidths add up to what the uplink carried. Such a sum can read an uplink
   * high, never low: pairs whose messages did not overlap in time each had the uplink to themselves
   * for a while, and a short message rides a traffic shaper's burst. So the estimate is the
   * smallest sum of the rounds in which a pair left the rack (the largest would price cross-rack
   * groups well under what they spend). A rack no measured pair left gets the fastest cross-rack
   * bandwidth seen.
   */
  public double[] uplinkMBps(int[] rackOfRank) {
    int racks = 0;
    for (int r : rackOfRank) {
      racks = Math.max(racks, r + 1);
    }
    double[] least = new double[racks];
    Arrays.fill(least, Double.POSITIVE_INFINITY);
    double fastestCross = 0;
    int n = workers();
    for (int round = 0; round < ProbeRounds.rounds(n); round++) {
      double[] leaving = new double[racks];
      for (int i = 0; i < n; i++) {
        int j = ProbeRounds.partner(i, round, n);
        if (j >= 0 && rackOfRank[i] != rackOfRank[j]) {
          leaving[rackOfRank[i]] += bandwidthMBps[j][i]; // j fetched from i: bytes left i's rack
          fastestCross = Math.max(fastestCross, bandwidthMBps[j][i]);
        }
      }
      for (int r = 0; r < racks; r++) {
        if (leaving[r] > 0) {
          least[r] = Math.min(least[r], leaving[r]);
        }
      }
    }
    for (int r = 0; r < racks; r++) {
      if (least[r] == Double.POSITIVE_INFINITY && fastestCross > 0) {
        least[r] = fastestCross;
      }
    }
    return least;
  }

  /**
   * Median bandwidth between each pair of racks of {@code layout} (and inside each rack), over the
   * host pairs measured: single pairs of a probe swing by 2-4x on a busy machine, a rack pair's
   * median much less. Racks are numbered in the order of their hosts' names, not of the ranks on
   * them: Spark may place the ranks on the same hosts in another order from stage to stage, and a
   * link must keep its name between the probes {@link #changesSince} compares.
   */
  public Map<String, Double> rackPairBandwidth(RackLayout layout) {
    return rackMedians(hostPairBandwidth(), layout);
  }

  private Map<String, Double> rackMedians(Map<String, Double> hostPairs, RackLayout layout) {
    String[] names = new TreeSet<>(List.of(hosts)).toArray(String[]::new);
    int[] rackOfName = layout.rackOfRank(names);
    Map<String, Integer> rackOfHost = new LinkedHashMap<>();
    for (int h = 0; h < names.length; h++) {
      rackOfHost.put(names[h], rackOfName[h]);
    }
    Map<String, List<Double>> samples = new TreeMap<>();
    hostPairs.forEach((pair, bw) -> {
      String[] ends = pair.split("<->");
      int a = rackOfHost.get(ends[0]);
      int b = rackOfHost.get(ends[1]);
      String key = "rack" + Math.min(a, b) + "<->rack" + Math.max(a, b);
      samples.computeIfAbsent(key, k -> new ArrayList<>()).add(bw);
    });
    Map<String, Double> medians = new LinkedHashMap<>();
    samples.forEach((k, v) -> medians.put(k, median(v)));
    return medians;
  }

  /** The median of {@code values} (the mean of the middle two when even); NaN when empty. */
  public static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int m = v.length;
    return m == 0 ? Double.NaN : m % 2 == 1 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
  }

  /**
   * Every rack pair (racks of {@code layout}, the plan's) measured both now and in {@code earlier},
   * with its median bandwidth then and now, each over the host pairs measured now: a later probe
   * that met only some pairs ({@link ProbeScope}) is compared like with like, so which pairs it met
   * does not move a link's median, and a pair it did not meet (bandwidth 0) counts neither as slow
   * nor as fast. For two probes of every pair this is every host pair in both.
   */
  public List<Change> changesSince(LinkMeasurements earlier, RackLayout layout) {
    Map<String, Double> nowPairs = hostPairBandwidth();
    Map<String, Double> thenPairs = new LinkedHashMap<>(earlier.hostPairBandwidth());
    thenPairs.keySet().retainAll(nowPairs.keySet());
    Map<String, Double> then = earlier.rackMedians(thenPairs, layout);
    List<Change> changes = new ArrayList<>();
    rackMedians(nowPairs, layout).forEach((link, now) -> {
      Double before = then.get(link);
      if (before != null && before > 0 && now > 0) {
        changes.add(new Change(link, before, now));
      }
    });
    return changes;
  }

  /** The largest of {@link #changesSince}, by factor either way; null when no rack pair is in both. */
  public Change largestChangeSince(LinkMeasurements earlier, RackLayout layout) {
    return Change.largest(changesSince(earlier, layout));
  }

  /** A link's (rack pair's) bandwidth before and now. */
  public record Change(String link, double beforeMBps, double nowMBps) implements Serializable {
    /** The change as a factor >= 1 either way. */
    public double size() {
      double f = nowMBps / beforeMBps;
      return Math.max(f, 1 / f);
    }

    public boolean slower() {
      return nowMBps < beforeMBps;
    }

    /** The change of largest {@link #size} (the first of equals); null for none. */
    public static Change largest(List<Change> changes) {
      return changes.stream().max(Comparator.comparingDouble(Change::size)).orElse(null);
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%s %.1f -> %.1f MB/s (x%.3g)", link, beforeMBps, nowMBps,
          nowMBps / beforeMBps);
    }
  }

  /** One line per host pair: "a<->b 118.0 MB/s", and the median latency. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    hostPairBandwidth().forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ")
        .append(String.format(Locale.ROOT, "%s %.1f MB/s", k, v)));
    List<Double> lat = new ArrayList<>();
    for (int i = 0; i < workers(); i++) {
      for (int j = 0; j < workers(); j++) {
        if (i != j && latencyMs[i][j] > 0) {
          lat.add(latencyMs[i][j]);
        }
      }
    }
    lat.sort(Double::compare);
    if (!lat.isEmpty()) {
      sb.append(String.format(Locale.ROOT, "; message latency median %.2f ms (min %.2f, max %.2f)",
          lat.get(lat.size() / 2), lat.get(0), lat.get(lat.size() - 1)));
    }
    return sb.toString();
  }
}
