package io.dssync.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rounds a later probe runs once racks are known: every link the re-plan rule reads (each pair
 * of racks, each rack's inside) measured by at least one pair of ranks, in as few rounds as there
 * are, the same on every rank; and every round while racks are not known or no longer place the ranks.
 */
class ProbeRoundsTest {
  /** {@code sizes[r]} one-rank hosts in rack r, the ranks on them in a seeded random order (0: in rack order). */
  private static String[] placement(int[] sizes, long seed) {
    List<String> hosts = new ArrayList<>();
    for (int r = 0; r < sizes.length; r++) {
      for (int h = 0; h < sizes[r]; h++) {
        hosts.add("10.0." + (r + 1) + "." + (11 + h));
      }
    }
    if (seed != 0) {
      Collections.shuffle(hosts, new Random(seed));
    }
    return hosts.toArray(String[]::new);
  }

  /** The racks of those hosts: "10.0.r.*" share rack r. */
  private static int[] rackOf(String[] hosts) {
    return Arrays.stream(hosts).mapToInt(h -> Integer.parseInt(h.split("\\.")[2]) - 1).toArray();
  }

  /**
   * The links {@code rounds} leave unmeasured, found pair by pair: a pair of racks no pair of ranks
   * across them met, or a rack of two or more ranks no two of its ranks on two of its hosts met
   * (on one host if it has only one).
   */
  private static List<String> unmeasured(int[] rackOfRank, String[] hosts, int[] rounds) {
    int n = rackOfRank.length;
    int racks = Arrays.stream(rackOfRank).max().orElse(0) + 1;
    List<String> missing = new ArrayList<>();
    for (int a = 0; a < racks; a++) {
      for (int b = a; b < racks; b++) {
        boolean exists = false;
        boolean met = false;
        boolean oneHost = true;
        for (int i = 0; i < n; i++) {
          for (int j = 0; j < n; j++) {
            if (i != j && rackOfRank[i] == a && rackOfRank[j] == b && !hosts[i].equals(hosts[j])) {
              oneHost = false;
            }
          }
        }
        for (int i = 0; i < n; i++) {
          for (int j = i + 1; j < n; j++) {
            boolean link = Math.min(rackOfRank[i], rackOfRank[j]) == a && Math.max(rackOfRank[i], rackOfRank[j]) == b
                && (oneHost || !hosts[i].equals(hosts[j]));
            if (!link) {
              continue;
            }
            exists = true;
            for (int round : rounds) {
              met |= ProbeRounds.partner(i, round, n) == j;
            }
          }
        }
        if (exists && !met) {
          missing.add("rack" + a + "<->rack" + b);
        }
      }
    }
    return missing;
  }

  /** The fewest rounds that leave nothing unmeasured, by trying every set of rounds. */
  private static int fewest(int[] rackOfRank, String[] hosts) {
    int all = ProbeRounds.rounds(rackOfRank.length);
    int best = all;
    for (int set = 1; set < 1 << all; set++) {
      int[] rounds = new int[Integer.bitCount(set)];
      for (int r = 0, k = 0; r < all; r++) {
        if ((set & 1 << r) != 0) {
          rounds[k++] = r;
        }
      }
      if (rounds.length < best && unmeasured(rackOfRank, hosts, rounds).isEmpty()) {
        best = rounds.length;
      }
    }
    return best;
  }

  @ParameterizedTest
  @CsvSource({"2;2", "2;2;2", "3;3", "2;2;2;2", "3;3;3", "4;4", "2;2;2;2;2", "2;2;1", "3;2", "4;4;4;4",
      "2;2;2;2;2;2;2;2"})
  void coveringRoundsMeasureEveryRackPairAndTheInsideOfEveryRack(String racks) {
    int[] sizes = Arrays.stream(racks.split(";")).mapToInt(Integer::parseInt).toArray();
    for (long seed = 0; seed < 60; seed++) {
      String[] hosts = placement(sizes, seed);
      int[] rackOfRank = rackOf(hosts);
      int[] rounds = ProbeRounds.covering(rackOfRank, hosts);
      assertEquals(List.of(), unmeasured(rackOfRank, hosts, rounds),
          Arrays.toString(hosts) + " " + Arrays.toString(rounds));
      assertTrue(rounds.length <= ProbeRounds.rounds(hosts.length));
      int[] sorted = rounds.clone();
      Arrays.sort(sorted);
      assertArrayEquals(sorted, rounds, "ascending");
      assertEquals(rounds.length, new TreeSet<>(Arrays.stream(rounds).boxed().toList()).size(), "no round twice");
    }
  }

  @ParameterizedTest
  @CsvSource({"2;2", "2;2;2", "3;3", "2;2;2;2", "3;3;3", "4;4", "2;2;2;2;2", "2;2;1", "3;2"})
  void coveringTakesTheFewestRoundsThereAre(String racks) {
    int[] sizes = Arrays.stream(racks.split(";")).mapToInt(Integer::parseInt).toArray();
    for (long seed = 0; seed < 40; seed++) {
      String[] hosts = placement(sizes, seed);
      int[] rackOfRank = rackOf(hosts);
      assertEquals(fewest(rackOfRank, hosts), ProbeRounds.covering(rackOfRank, hosts).length, Arrays.toString(hosts));
    }
  }

  /**
   * What a later probe saves on the testbeds: its cost is about its rounds' (at the budget floor,
   * each pair's four fixed messages per round); 2 x 2: 3 -> 2 rounds on every placement of the
   * ranks (a third less), 3 x 2: 5 -> 2 or 3 (40-60% less; 3 with the ranks in rack order).
   */
  @Test
  void theTestbedsNeedTwoOfThreeRoundsAndTwoOrThreeOfFive() {
    List<Integer> twoByTwo = new ArrayList<>();
    List<Integer> threeByTwo = new ArrayList<>();
    for (long seed = 0; seed < 200; seed++) {
      String[] hosts = placement(new int[] {2, 2}, seed);
      twoByTwo.add(ProbeRounds.covering(rackOf(hosts), hosts).length);
      hosts = placement(new int[] {2, 2, 2}, seed);
      threeByTwo.add(ProbeRounds.covering(rackOf(hosts), hosts).length);
    }
    assertEquals(List.of(2), twoByTwo.stream().distinct().toList());
    assertEquals(List.of(2, 3), threeByTwo.stream().distinct().sorted().toList());
    String[] inRackOrder = placement(new int[] {2, 2, 2}, 0);
    assertArrayEquals(new int[] {0, 3, 4}, ProbeRounds.covering(rackOf(inRackOrder), inRackOrder),
        "the three inside pairs (0,1), (2,3), (4,5) meet in rounds 3, 0 and 4, which also cross every rack pair");
  }

  @Test
  void ranksSharingAHostDoNotStandForTheirRacksNetwork() {
    // Rack 0: two hosts with two ranks each; rack 1 likewise.
    String[] hosts = {"a1", "a1", "a2", "a2", "b1", "b1", "b2", "b2"};
    int[] rackOfRank = {0, 0, 0, 0, 1, 1, 1, 1};
    int[] rounds = ProbeRounds.covering(rackOfRank, hosts);
    for (int rack = 0; rack < 2; rack++) {
      boolean acrossHosts = false;
      for (int round : rounds) {
        for (int i = 0; i < 8; i++) {
          int j = ProbeRounds.partner(i, round, 8);
          acrossHosts |= j >= 0 && rackOfRank[i] == rack && rackOfRank[j] == rack && !hosts[i].equals(hosts[j]);
        }
      }
      assertTrue(acrossHosts, "rack " + rack + "'s inside measured across its hosts in " + Arrays.toString(rounds));
    }
    // One host only (a local-cluster): its own pairs are all there is, and one round meets one of them.
    assertEquals(1, ProbeRounds.covering(new int[4], new String[] {"h", "h", "h", "h"}).length);
  }

  @Test
  void everyRankDerivesTheSameRoundsFromTheScopeTheStageShips() throws Exception {
    LinkMeasurements planned = TestbedLinks.of(3, 2, 120, 12);
    ProbeScope scope = ProbeScope.of(planned.racks(), planned.hosts());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(scope);
    }
    ProbeScope shipped;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      shipped = (ProbeScope) in.readObject();
    }
    // This stage placed the ranks on the same hosts in another order.
    String[] stage = placement(new int[] {2, 2, 2}, 7);
    int[] rounds = scope.rounds(stage);
    assertArrayEquals(rounds, shipped.rounds(stage.clone()));
    assertArrayEquals(ProbeRounds.covering(rackOf(stage), stage), rounds);
    assertTrue(rounds.length < ProbeRounds.rounds(6), Arrays.toString(rounds));
  }

  @Test
  void aProbeBeforeRacksAreKnownOrOnOtherHostsMeetsEveryPair() {
    LinkMeasurements planned = TestbedLinks.of(2, 2, 120, 12);
    int[] all = {0, 1, 2};
    assertArrayEquals(all, ProbeScope.full().rounds(planned.hosts()), "the first probe");
    ProbeScope scope = ProbeScope.of(planned.racks(), planned.hosts());
    assertArrayEquals(new int[] {0, 2}, scope.rounds(planned.hosts()), "round 2 inside both racks, 0 across");
    String[] moved = planned.hosts().clone();
    moved[3] = "10.0.9.9";
    assertArrayEquals(all, scope.rounds(moved), "an executor on another host: racks must be found again");
    String[] doubled = {planned.hosts()[0], planned.hosts()[0], planned.hosts()[1], planned.hosts()[2],
        planned.hosts()[3]};
    assertArrayEquals(new int[] {0, 1, 2, 3, 4}, scope.rounds(doubled), "another number of ranks");
  }
}
