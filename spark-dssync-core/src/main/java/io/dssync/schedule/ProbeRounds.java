package io.dssync.schedule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The pairing of the link probe: a round-robin tournament (circle method) in which every pair of
 * ranks meets exactly once over N - 1 rounds (N rounds when N is odd, each rank resting once).
 * Pairs of one round exchange at the same time, so the planner knows which measurements shared
 * an uplink. Once racks are known a probe can run fewer rounds ({@link #covering}).
 */
public final class ProbeRounds {
  private ProbeRounds() {}

  /** Rounds needed for {@code n} ranks. */
  public static int rounds(int n) {
    return n <= 1 ? 0 : (n % 2 == 0 ? n - 1 : n);
  }

  /** Every round, 0 .. {@link #rounds}(n) - 1: the probe that measures every pair. */
  public static int[] all(int n) {
    int[] out = new int[rounds(n)];
    for (int r = 0; r < out.length; r++) {
      out[r] = r;
    }
    return out;
  }

  /** The partner of {@code rank} in {@code round}, or -1 when it rests that round. */
  public static int partner(int rank, int round, int n) {
    int m = n % 2 == 0 ? n : n + 1; // odd n: a phantom rank m - 1 = n, whose partner rests
    int last = m - 1;
    int p;
    if (rank == last) {
      p = round % last;
    } else {
      p = Math.floorMod(2 * round - rank, last);
      if (p == rank) {
        p = last;
      }
    }
    return p >= n ? -1 : p;
  }

  /**
   * The rounds (ascending) a probe needs once racks are known: few enough that every link {@link
   * ReplanRule} reads is measured by at least one pair of ranks, i.e. every pair of racks, and the
   * inside of every rack of two or more ranks. Inside a rack of two or more hosts only pairs on two
   * of its hosts count: ranks that share a host meet through memory, not the rack's network.
   *
   * <p>Picked as a set cover: a round that alone measures a link still missing is taken first (a
   * rack of two ranks has one inside pair, which meets in one round only), else the round that
   * measures the most missing links, the earliest of equals. On every placement ProbeRoundsTest
   * tries (2 to 5 racks of 1 to 4 one-rank hosts, up to 10 ranks) that is the fewest rounds there
   * are (taking the widest round first is not: 4 of 5 rounds on 3 x 2 in rack order). A 2 x 2 testbed needs 2
   * of 3 rounds (one inside both racks, one across), a 3 x 2 one 2 or 3 of 5 (3 with the ranks in
   * rack order: the three inside pairs meet in three rounds), 2 x 3 just one. The result depends on
   * its arguments only, so every rank derives the same rounds, as both ranks of a pair must.
   */
  public static int[] covering(int[] rackOfRank, String[] hostOfRank) {
    int n = rackOfRank.length;
    Map<Integer, Set<String>> hostsOfRack = new HashMap<>();
    for (int r = 0; r < n; r++) {
      hostsOfRack.computeIfAbsent(rackOfRank[r], k -> new HashSet<>()).add(hostOfRank[r]);
    }
    List<Set<String>> measures = new ArrayList<>();
    Set<String> missing = new TreeSet<>();
    for (int round = 0; round < rounds(n); round++) {
      Set<String> links = new HashSet<>();
      for (int i = 0; i < n; i++) {
        int j = partner(i, round, n);
        if (j > i) {
          int a = Math.min(rackOfRank[i], rackOfRank[j]);
          int b = Math.max(rackOfRank[i], rackOfRank[j]);
          if (a != b || !hostOfRank[i].equals(hostOfRank[j]) || hostsOfRack.get(a).size() == 1) {
            links.add("rack" + a + "<->rack" + b);
          }
        }
      }
      measures.add(links);
      missing.addAll(links);
    }
    List<Integer> chosen = new ArrayList<>();
    while (!missing.isEmpty()) {
      int pick = onlyRoundOfAMissingLink(missing, measures);
      if (pick < 0) {
        int most = 0;
        for (int round = 0; round < measures.size(); round++) {
          int adds = (int) measures.get(round).stream().filter(missing::contains).count();
          if (adds > most) {
            most = adds;
            pick = round;
          }
        }
      }
      chosen.add(pick);
      missing.removeAll(measures.get(pick));
    }
    return chosen.stream().mapToInt(Integer::intValue).sorted().toArray();
  }

  /** The round of the first missing link (in name order) that only one round measures, or -1. */
  private static int onlyRoundOfAMissingLink(Set<String> missing, List<Set<String>> measures) {
    for (String link : missing) {
      int found = -1;
      for (int round = 0; round < measures.size(); round++) {
        if (measures.get(round).contains(link)) {
          if (found >= 0) {
            found = -2;
            break;
          }
          found = round;
        }
      }
      if (found >= 0) {
        return found;
      }
    }
    return -1;
  }
}
