package io.dssync.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The ring algorithm ({@link AllReduceAlgorithm#RING}), every member on its own thread. */
public class RingAllReduceTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final Duration SHORT_TIMEOUT = Duration.ofMillis(300);

  static Stream<Arguments> cases() {
    // Also chunks of several of the ring's smallest parts, the last one short.
    int part = Parts.RING_MIN_PART_FLOATS;
    return Stream.concat(GroupAllReduceTest.cases(),
        Stream.of(Arguments.of("several small ring parts per chunk", 4, 4 * (3 * part + 5) + 3)));
  }

  @ParameterizedTest(name = "{0}: g={1} size={2}")
  @MethodSource("cases")
  void everyMemberGetsEachChunkSummedFromItsOwnersSuccessorRoundToItsOwner(String name, int g, int size) {
    float[][] vectors = GroupAllReduceTest.randomVectors(g, size, 31L * g + size);
    GroupAllReduceTest.assertEveryMemberOfAllRanksGets(ringOrderMean(vectors, GroupAllReduceTest.allRanks(g)),
        vectors, t -> ring(t, TIMEOUT));
  }

  @Test
  void aRingOfThreeRoundsOtherwiseThanRankOrderButWithinTheSummandsRoundingOfIt() {
    int g = 3;
    int size = 10_007;
    float[][] vectors = GroupAllReduceTest.randomVectors(g, size, 3);
    float[] rankOrder = GroupAllReduceTest.rankOrderMean(vectors, GroupAllReduceTest.allRanks(g));
    double[] magnitude = new double[size];
    for (int i = 0; i < size; i++) {
      magnitude[i] = Math.abs(vectors[0][i]) + Math.abs(vectors[1][i]) + Math.abs(vectors[2][i]);
    }
    List<InMemoryTransport> transports = InMemoryTransport.create(g);
    Members.runAll(g, rank -> ring(transports.get(rank), TIMEOUT).average(new int[] {0, 1, 2}, vectors[rank], 0, 0));
    // The ring really ran: some element rounds differently from the direct algorithm's sum.
    assertFalse(Arrays.equals(rankOrder, vectors[0]), "the ring summed in rank order");
    for (int i = 0; i < size; i++) {
      assertEquals(rankOrder[i], vectors[0][i], 1e-6 * magnitude[i] + Float.MIN_VALUE, "element " + i);
    }
  }

  @Test
  void disjointGroupsOfAnyRanksEachRingInTheirOwnOrder() {
    int n = 7;
    int[][] groups = {{0, 3, 5, 6}, {1, 2, 4}};
    int[] groupOfRank = {0, 1, 1, 0, 1, 0, 0};
    float[][] vectors = GroupAllReduceTest.randomVectors(n, 1001, 11);
    float[][] expected = new float[n][];
    for (int rank = 0; rank < n; rank++) {
      expected[rank] = ringOrderMean(vectors, groups[groupOfRank[rank]]);
    }
    List<InMemoryTransport> transports = InMemoryTransport.create(n);
    Members.runAll(n, rank ->
        ring(transports.get(rank), TIMEOUT).average(groups[groupOfRank[rank]], vectors[rank], 3, 0));
    for (int rank = 0; rank < n; rank++) {
      assertArrayEquals(expected[rank], vectors[rank], "rank " + rank);
    }
  }

  @Test
  void aRingPassesTheMembersInTheOrderOfTheirHostsAndSumsEachChunkFromItsOwnersSuccessorThere() {
    int n = 5;
    String[] hosts = {"10.0.2.11", "10.0.1.12", "10.0.10.11", "10.0.1.11", "10.0.2.12"};
    int[] ringOrder = {3, 1, 0, 4, 2}; // by address, 10.0.2.x before 10.0.10.x
    assertArrayEquals(ringOrder, HostOrder.byHost(hosts));
    int[] group = {0, 1, 2, 3};        // rank 4 sits out: the ring is 3, 1, 0, 2
    float[][] vectors = GroupAllReduceTest.randomVectors(n, 10_007, 9);
    float[] expected = ringOrderMean(vectors, group, ringOrder);
    assertFalse(Arrays.equals(expected, ringOrderMean(vectors, group)), "the order should change the rounding");
    for (AllReduceAlgorithm algorithm : List.of(AllReduceAlgorithm.RING, AllReduceAlgorithm.AUTO)) {
      float[][] mine = GroupAllReduceTest.randomVectors(n, 10_007, 9);
      List<InMemoryTransport> transports = InMemoryTransport.create(n);
      Members.runAll(group.length, m ->
          new GroupAllReduce(transports.get(m), TIMEOUT, algorithm, hosts).average(group, mine[m], 5, 0));
      for (int rank : group) {
        assertArrayEquals(expected, mine[rank], algorithm + ": rank " + rank);
      }
    }
  }

  @Test
  void autoAveragesAGroupOnOneHostDirectlyInRankOrderAndRingsAGroupAcrossHosts() {
    int n = 4;
    int[] group = {0, 1, 2, 3};
    String[] oneHost = {"127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1"};
    String[] twoHosts = {"h1", "h1", "h2", "h2"};
    float[][] start = GroupAllReduceTest.randomVectors(n, 10_007, 21);
    float[] rankOrder = GroupAllReduceTest.rankOrderMean(start, group);
    float[] ring = ringOrderMean(start, group);
    assertFalse(Arrays.equals(rankOrder, ring), "the data should tell the two algorithms apart");
    for (String[] hosts : new String[][] {oneHost, twoHosts}) {
      float[][] vectors = GroupAllReduceTest.randomVectors(n, 10_007, 21);
      List<InMemoryTransport> transports = InMemoryTransport.create(n);
      Members.runAll(n, rank -> new GroupAllReduce(transports.get(rank), TIMEOUT, AllReduceAlgorithm.AUTO, hosts)
          .average(group, vectors[rank], 0, 0));
      float[] expected = hosts == oneHost ? rankOrder : ring;
      for (int rank = 0; rank < n; rank++) {
        assertArrayEquals(expected, vectors[rank], Arrays.toString(hosts) + " rank " + rank);
      }
    }
  }

  @Test
  void hostsThatLeaveARankOutAreRefusedNamingIt() {
    List<InMemoryTransport> transports = InMemoryTransport.create(3);
    GroupAllReduce twoHosts = new GroupAllReduce(transports.get(0), SHORT_TIMEOUT, AllReduceAlgorithm.RING,
        new String[] {"a", "b"});
    DsSyncException missing =
        assertThrows(DsSyncException.class, () -> twoHosts.average(new int[] {0, 1, 2}, new float[9], 0, 0));
    assertTrue(missing.getMessage().contains("rank 2"), missing.getMessage());
    DsSyncException unnamed = assertThrows(DsSyncException.class, () -> new GroupAllReduce(transports.get(0),
        SHORT_TIMEOUT, AllReduceAlgorithm.RING, new String[] {"a", null, "b"}));
    assertTrue(unnamed.getMessage().contains("[a, null, b]"), unnamed.getMessage());
  }

  @ParameterizedTest(name = "racks {0}, size {1}")
  @MethodSource("io.dssync.collective.GroupAllReduceTest#rackCases")
  void aTwoLevelAverageOverRingsGivesEveryRankTheSameFloatsCloseToTheFlatMean(int[][] racks, int size) {
    int n = Arrays.stream(racks).mapToInt(r -> r.length).sum();
    float[][] vectors = GroupAllReduceTest.randomVectors(n, size, 17L * n + size);
    float[] flat = GroupAllReduceTest.rankOrderMean(vectors, GroupAllReduceTest.allRanks(n));
    double[] magnitude = new double[size]; // rounding errors scale with the summands, not their sum
    for (float[] v : vectors) {
      for (int i = 0; i < size; i++) {
        magnitude[i] += Math.abs(v[i]);
      }
    }
    List<InMemoryTransport> transports = InMemoryTransport.create(n);
    Members.runAll(n, rank -> ring(transports.get(rank), TIMEOUT).averageInRacks(racks, vectors[rank], 4, 0));
    for (int rank = 1; rank < n; rank++) {
      assertArrayEquals(vectors[0], vectors[rank], "rank " + rank + " against rank 0");
    }
    for (int i = 0; i < size; i++) {
      assertEquals(flat[i], vectors[0][i], 1e-6 * magnitude[i] + Float.MIN_VALUE, "element " + i + " vs the flat mean");
    }
    assertEquals(0, transports.get(0).pendingChunks(), "every chunk was fetched and dropped");
  }

  @Test
  void aMemberThatNeverSendsMakesItsSuccessorTimeOutNamingIt() {
    int g = 4;
    int missing = 2;
    Throwable[] failures =
        GroupAllReduceTest.failuresWhileOneIsSilent(g, missing, 40, transport -> ring(transport, SHORT_TIMEOUT));
    DsSyncException e = GroupAllReduceTest.assertInstanceOfDsSync(failures[missing + 1]);
    assertEquals(ErrorKind.SYNC_TIMEOUT, e.kind());
    assertTrue(e.getMessage().contains("from rank " + missing), e.getMessage());
  }

  @Test
  void anUnknownAlgorithmNamesTheValueAndTheChoices() {
    DsSyncException e = assertThrows(DsSyncException.class, () -> AllReduceAlgorithm.parse("--all-reduce", "tree"));
    assertTrue(e.getMessage().contains("Invalid --all-reduce = tree") && e.getMessage().contains("direct")
        && e.getMessage().contains("ring"), e.getMessage());
    assertEquals(AllReduceAlgorithm.RING, AllReduceAlgorithm.parse("--all-reduce", " Ring "));
  }

  private static GroupAllReduce ring(InMemoryTransport transport, Duration timeout) {
    return new GroupAllReduce(transport, timeout, AllReduceAlgorithm.RING);
  }

  /** {@link #ringOrderMean(float[][], int[], int[])} of a ring in rank order. */
  public static float[] ringOrderMean(float[][] vectors, int[] group) {
    return ringOrderMean(vectors, group, null);
  }

  /**
   * The ring's reference: the vector cut into g chunks ({@link Chunking}), chunk m owned by the
   * group's member m; the members in the order they have in {@code ringOrder} (null: rank order);
   * each chunk summed in FP32 from the member after its owner round to its owner, divided by g.
   */
  public static float[] ringOrderMean(float[][] vectors, int[] group, int[] ringOrder) {
    int g = group.length;
    int[] ring = ringOrder == null ? group.clone()
        : Arrays.stream(ringOrder).filter(r -> Arrays.binarySearch(group, r) >= 0).toArray();
    int size = vectors[group[0]].length;
    float[] mean = new float[size];
    for (int k = 0; k < g; k++) {
      int owner = Arrays.binarySearch(group, ring[k]);
      int from = Chunking.offset(size, g, owner);
      for (int i = from; i < from + Chunking.length(size, g, owner); i++) {
        float sum = vectors[ring[(k + 1) % g]][i];
        for (int j = 2; j <= g; j++) {
          sum += vectors[ring[(k + j) % g]][i];
        }
        mean[i] = sum / g;
      }
    }
    return mean;
  }
}
