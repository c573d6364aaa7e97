package io.dssync.schedule;

/** Synthetic link measurements of a racked testbed, and a plan's candidates by name, for the auto schedule's tests. */
public final class TestbedLinks {
  private TestbedLinks() {}

  /**
   * Links of a testbed: {@code racks} x {@code hosts} one-rank hosts, {@code fast} MB/s inside a
   * rack; a cross-rack pair measured {@code uplink} MB/s shared by the pairs of its probe round
   * that leave the same rack.
   */
  public static LinkMeasurements of(int racks, int hosts, double fast, double uplink) {
    int[] hostsPerRack = new int[racks];
    java.util.Arrays.fill(hostsPerRack, hosts);
    return of(hostsPerRack, fast, uplink);
  }

  /** Like {@link #of(int, int, double, double)}, with {@code hostsPerRack[r]} hosts in rack r. */
  public static LinkMeasurements of(int[] hostsPerRack, double fast, double uplink) {
    int n = java.util.Arrays.stream(hostsPerRack).sum();
    String[] names = new String[n];
    int[] rackOf = new int[n];
    for (int rack = 0, r = 0; rack < hostsPerRack.length; rack++) {
      for (int h = 0; h < hostsPerRack[rack]; h++, r++) {
        rackOf[r] = rack;
        names[r] = "10.0." + (rack + 1) + "." + (11 + h);
      }
    }
    double[][] latency = new double[n][n];
    double[][] bandwidth = new double[n][n];
    for (int round = 0; round < ProbeRounds.rounds(n); round++) {
      for (int i = 0; i < n; i++) {
        int j = ProbeRounds.partner(i, round, n);
        if (j < 0) {
          continue;
        }
        latency[j][i] = 2;
        if (rackOf[i] == rackOf[j]) {
          bandwidth[j][i] = fast;
        } else {
          int sharing = 0;
          for (int k = 0; k < n; k++) {
            int q = ProbeRounds.partner(k, round, n);
            if (q >= 0 && rackOf[k] == rackOf[i] && rackOf[q] != rackOf[i]) {
              sharing++;
            }
          }
          bandwidth[j][i] = uplink / sharing;
        }
      }
    }
    return new LinkMeasurements(names, latency, bandwidth);
  }

  /** {@code plan}'s candidate of {@code kind} with groups of {@code g} and (unless 0) cross-rack period {@code c}. */
  public static AutoPlanner.Candidate candidate(AutoPlanner.Plan plan, ScheduleKind kind, int g, int c) {
    return plan.candidates().stream()
        .filter(x -> x.kind() == kind && x.groupSize() == g && (c == 0 || x.crossRackPeriod() == c))
        .findFirst().orElseThrow();
  }

  /** Ranks 0 .. n - 1: the host order of the links above, whose addresses ascend with the rank. */
  public static int[] inRankOrder(int n) {
    return java.util.stream.IntStream.range(0, n).toArray();
  }

  /** {@code m} with rank r now where rank {@code from[r]} was (its host and its links). */
  public static LinkMeasurements permuted(LinkMeasurements m, int[] from) {
    int n = from.length;
    String[] hosts = new String[n];
    double[][] latency = new double[n][n];
    double[][] bandwidth = new double[n][n];
    for (int r = 0; r < n; r++) {
      hosts[r] = m.hosts()[from[r]];
      for (int p = 0; p < n; p++) {
        latency[r][p] = m.latencyMs()[from[r]][from[p]];
        bandwidth[r][p] = m.bandwidthMBps()[from[r]][from[p]];
      }
    }
    return new LinkMeasurements(hosts, latency, bandwidth);
  }

  /** {@code full} as a probe of only {@code rounds} reads it: 0 for every pair that did not meet. */
  public static LinkMeasurements partial(LinkMeasurements full, int[] rounds) {
    int n = full.workers();
    double[][] latency = new double[n][n];
    double[][] bandwidth = new double[n][n];
    for (int round : rounds) {
      for (int i = 0; i < n; i++) {
        int j = ProbeRounds.partner(i, round, n);
        if (j >= 0) {
          latency[i][j] = full.latencyMs()[i][j];
          bandwidth[i][j] = full.bandwidthMBps()[i][j];
        }
      }
    }
    return new LinkMeasurements(full.hosts().clone(), latency, bandwidth);
  }
}
