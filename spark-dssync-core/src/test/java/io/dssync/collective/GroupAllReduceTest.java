package io.dssync.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The edge cases of a chunked all-reduce, each run with every member on its own thread. */
class GroupAllReduceTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final Duration SHORT_TIMEOUT = Duration.ofMillis(300);

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (int g = 1; g <= 5; g++) {
      cases.add(Arguments.of("empty vector", g, 0));
      cases.add(Arguments.of("one element", g, 1));
      cases.add(Arguments.of("shorter than g", g, Math.max(0, g - 1)));
      cases.add(Arguments.of("not divisible by g", g, 3 * g + 1));
      cases.add(Arguments.of("several elements per chunk", g, 64 * g));
      cases.add(Arguments.of("long, uneven", g, 10_007));
    }
    // Chunks of several parts (the last one short), and chunks that end exactly on a part boundary.
    int part = Parts.PART_FLOATS;
    cases.add(Arguments.of("several parts per chunk", 2, 2 * (2 * part + 1234) + 1));
    cases.add(Arguments.of("several parts per chunk", 3, 3 * (part + 17) + 2));
    cases.add(Arguments.of("chunks of whole parts", 2, 2 * 2 * part));
    return cases.stream();
  }

  @Test
  void scalingByAPowerOfTwoIsBitIdenticalToDividing() {
    Random random = new Random(5);
    float[] sums = new float[100_000];
    for (int i = 0; i < sums.length; i++) {
      // Every exponent, subnormals included: the multiply by 1/g must round exactly like the divide.
      sums[i] = Float.intBitsToFloat(random.nextInt() & 0x7f7f_ffff | (random.nextBoolean() ? 0x8000_0000 : 0));
    }
    sums[0] = Float.MIN_VALUE;
    sums[1] = -Float.MIN_NORMAL;
    sums[2] = 3 * Float.MIN_VALUE;
    for (int g : new int[] {2, 3, 4, 5, 8, 64, 1024}) {
      float[] scaled = new float[sums.length + 3];
      FloatSums.scaleInto(sums, scaled, 3, sums.length, g);
      for (int i = 0; i < sums.length; i++) {
        if (Float.floatToRawIntBits(scaled[3 + i]) != Float.floatToRawIntBits(sums[i] / g)) {
          throw new AssertionError("g=" + g + ": " + sums[i] + " scaled to " + scaled[3 + i] + ", divided "
              + sums[i] / g);
        }
      }
    }
  }

  @ParameterizedTest(name = "{0}: g={1} size={2}")
  @MethodSource("cases")
  void everyMemberGetsTheBitExactRankOrderAverage(String name, int g, int size) {
    float[][] vectors = randomVectors(g, size, 31L * g + size);
    assertEveryMemberOfAllRanksGets(rankOrderMean(vectors, allRanks(g)), vectors,
        t -> new GroupAllReduce(t, TIMEOUT));
  }

  /**
   * Averages {@code vectors} over all their ranks, each rank on its own thread with the all-reduce
   * {@code make} builds on its transport, and asserts every rank ended with {@code expected} and
   * no chunk was left behind.
   */
  static void assertEveryMemberOfAllRanksGets(float[] expected, float[][] vectors,
      java.util.function.Function<InMemoryTransport, GroupAllReduce> make) {
    int g = vectors.length;
    List<InMemoryTransport> transports = InMemoryTransport.create(g);
    int[] group = allRanks(g);
    Members.runAll(g, rank -> make.apply(transports.get(rank)).average(group, vectors[rank], 7, 0));
    for (int rank = 0; rank < g; rank++) {
      assertArrayEquals(expected, vectors[rank], "rank " + rank);
    }
    assertEquals(0, transports.get(0).pendingChunks(), "every chunk was fetched and dropped");
  }

  @Test
  void groupOfNEqualsPlainAverage() {
    int n = 4;
    float[][] vectors = {{1, 2, 3}, {3, 4, 5}, {5, 6, 7}, {7, 8, 9}};
    List<InMemoryTransport> transports = InMemoryTransport.create(n);
    Members.runAll(n, rank -> new GroupAllReduce(transports.get(rank), TIMEOUT)
        .average(allRanks(n), vectors[rank], 0, 0));
    for (float[] v : vectors) {
      assertArrayEquals(new float[] {4, 5, 6}, v);
    }
  }

  @Test
  void disjointGroupsInOneStepEachGetTheirOwnMean() {
    int n = 7;
    int[][] groups = {{0, 3, 5}, {1, 2}, {4}, {6}};
    int[] groupOfRank = {0, 1, 1, 0, 2, 0, 3};
    float[][] vectors = randomVectors(n, 101, 5);
    float[][] expected = new float[n][];
    for (int rank = 0; rank < n; rank++) {
      expected[rank] = rankOrderMean(vectors, groups[groupOfRank[rank]]);
    }
    List<InMemoryTransport> transports = InMemoryTransport.create(n);
    Members.runAll(n, rank ->
        new GroupAllReduce(transports.get(rank), TIMEOUT).average(groups[groupOfRank[rank]], vectors[rank], 3, 0));
    for (int rank = 0; rank < n; rank++) {
      assertArrayEquals(expected[rank], vectors[rank], "rank " + rank);
    }
    assertEquals(0, transports.get(0).pendingChunks());
  }

  @Test
  void aMemberThatNeverPublishesMakesTheOthersTimeOutNamingIt() {
    int g = 3;
    int missing = 1;
    Throwable[] failures = failuresWhileOneIsSilent(g, missing, 30,
        transport -> new GroupAllReduce(transport, SHORT_TIMEOUT));
    assertNull(failures[missing]);
    for (int rank : new int[] {0, 2}) {
      DsSyncException e = assertInstanceOfDsSync(failures[rank]);
      assertEquals(ErrorKind.SYNC_TIMEOUT, e.kind());
      assertTrue(e.getMessage().contains("Rank " + rank + " waited 300 ms at step 12"), e.getMessage());
      assertTrue(e.getMessage().contains("from rank " + missing), e.getMessage());
    }
  }

  @Test
  void membersWithDifferentVectorLengthsFail() {
    List<InMemoryTransport> transports = InMemoryTransport.create(2);
    float[][] vectors = {new float[5], new float[4]};
    Throwable[] failures = Members.run(2, rank ->
        new GroupAllReduce(transports.get(rank), SHORT_TIMEOUT).average(new int[] {0, 1}, vectors[rank], 0, 0));
    boolean lengthReported = false;
    for (Throwable failure : failures) {
      DsSyncException e = assertInstanceOfDsSync(failure);
      lengthReported |= e.kind() == ErrorKind.DATA && e.getMessage().contains("has length 2 but 3 was expected");
    }
    assertTrue(lengthReported, "one member names the length mismatch");
  }

  @Test
  void aRankOutsideTheGroupIsRejected() {
    InMemoryTransport transport = InMemoryTransport.create(4).get(3);
    GroupAllReduce allReduce = new GroupAllReduce(transport, TIMEOUT);
    DsSyncException e =
        assertThrows(DsSyncException.class, () -> allReduce.average(new int[] {0, 1}, new float[4], 0, 0));
    assertTrue(e.getMessage().contains("Rank 3 is not a member of group [0, 1]"), e.getMessage());
  }

  @Test
  void anUnsortedGroupIsRejected() {
    GroupAllReduce allReduce = new GroupAllReduce(InMemoryTransport.create(3).get(0), TIMEOUT);
    DsSyncException e =
        assertThrows(DsSyncException.class, () -> allReduce.average(new int[] {2, 0}, new float[4], 0, 0));
    assertTrue(e.getMessage().contains("[2, 0]"), e.getMessage());
  }

  @Test
  void aGroupOfOneLeavesTheVectorAndTheTransportAlone() {
    InMemoryTransport transport = InMemoryTransport.create(2).get(1);
    float[] vector = {1.5f, -2f};
    new GroupAllReduce(transport, TIMEOUT).average(new int[] {1}, vector, 0, 0);
    assertArrayEquals(new float[] {1.5f, -2f}, vector);
    assertEquals(new TransportStats.Snapshot(0, 0, 0, 0), transport.stats().snapshot());
  }

  @Test
  void oneInstanceServesManyRoundsOfChangingSizes() {
    int g = 3;
    int[] sizes = {1000, 2, 0, 7, 1001, 5};
    float[][][] vectors = new float[sizes.length][][];
    float[][] expected = new float[sizes.length][];
    for (int round = 0; round < sizes.length; round++) {
      vectors[round] = randomVectors(g, sizes[round], round);
      expected[round] = rankOrderMean(vectors[round], allRanks(g));
    }
    List<InMemoryTransport> transports = InMemoryTransport.create(g);
    Members.runAll(g, rank -> {
      GroupAllReduce allReduce = new GroupAllReduce(transports.get(rank), TIMEOUT);
      for (int round = 0; round < sizes.length; round++) {
        allReduce.average(allRanks(g), vectors[round][rank], 40, round);
      }
    });
    for (int round = 0; round < sizes.length; round++) {
      for (int rank = 0; rank < g; rank++) {
        assertArrayEquals(expected[round], vectors[round][rank], "round " + round + " rank " + rank);
      }
    }
    assertEquals(0, transports.get(0).pendingChunks());
  }

  @Test
  void statsCountTheBytesOfBothPhases() {
    int g = 4;
    int size = 10; // chunks of 3, 3, 2, 2
    List<InMemoryTransport> transports = InMemoryTransport.create(g);
    float[][] vectors = randomVectors(g, size, 1);
    Members.runAll(g, rank -> new GroupAllReduce(transports.get(rank), TIMEOUT)
        .average(allRanks(g), vectors[rank], 0, 0));
    // Rank 0 owns chunk 0 (3 floats): sends chunks 1..3 (7 floats) then its chunk to 3 readers
    // once (3 floats); receives chunk 0 three times (9) and chunks 1..3 (7).
    TransportStats.Snapshot s = transports.get(0).stats().snapshot();
    assertEquals(4L * (7 + 3), s.bytesSent());
    assertEquals(4L * (9 + 7), s.bytesReceived());
  }

  @Test
  void nonPositiveTimeoutIsRejected() {
    InMemoryTransport transport = InMemoryTransport.create(1).get(0);
    assertThrows(DsSyncException.class, () -> new GroupAllReduce(transport, Duration.ZERO));
  }

  /**
   * Every member but {@code missing} averages a vector of {@code length} over all g ranks at step 12
   * with the all-reduce {@code build} makes; what each member threw (null for none and for the silent one).
   */
  static Throwable[] failuresWhileOneIsSilent(int g, int missing, int length,
      Function<InMemoryTransport, GroupAllReduce> build) {
    List<InMemoryTransport> transports = InMemoryTransport.create(g);
    return Members.run(g, rank -> {
      if (rank != missing) {
        build.apply(transports.get(rank)).average(allRanks(g), new float[length], 12, 0);
      }
    });
  }

  static DsSyncException assertInstanceOfDsSync(Throwable failure) {
    assertNotNull(failure, "expected a failure");
    assertSame(DsSyncException.class, failure.getClass(), "unexpected " + failure);
    return (DsSyncException) failure;
  }

  static Stream<Arguments> rackCases() {
    int part = Parts.PART_FLOATS;
    List<Arguments> cases = new ArrayList<>();
    int[][][] layouts = {
        {{0, 1}, {2, 3}},
        {{1, 3}, {0, 2}},
        {{0, 2}, {1, 3}, {4, 5}},
        {{0, 1, 2}, {3, 4, 5}},
        {{0}, {1}, {2}},
    };
    for (int[][] racks : layouts) {
      for (int size : new int[] {0, 1, 5, 10_007}) {
        cases.add(Arguments.of(racks, size));
      }
    }
    cases.add(Arguments.of(new int[][] {{0, 1}, {2, 3}}, 2 * (part + 99) + 1));
    return cases.stream();
  }

  @ParameterizedTest(name = "racks {0}, size {1}")
  @MethodSource("rackCases")
  void aTwoLevelAverageGivesEveryRankTheSameMeanOfRackMeans(int[][] racks, int size) {
    int n = Arrays.stream(racks).mapToInt(r -> r.length).sum();
    float[][] vectors = randomVectors(n, size, 17L * n + size);
    float[] expected = meanOfRackMeans(vectors, racks);
    float[] flat = rankOrderMean(vectors, allRanks(n));
    double[] magnitude = new double[size]; // rounding errors scale with the summands, not their (cancelling) sum
    for (float[] v : vectors) {
      for (int i = 0; i < size; i++) {
        magnitude[i] += Math.abs(v[i]);
      }
    }
    List<InMemoryTransport> transports = InMemoryTransport.create(n);
    Members.runAll(n, rank ->
        new GroupAllReduce(transports.get(rank), TIMEOUT).averageInRacks(racks, vectors[rank], 4, 0));
    for (int rank = 0; rank < n; rank++) {
      assertArrayEquals(expected, vectors[rank], "rank " + rank);
    }
    for (int i = 0; i < size; i++) {
      assertEquals(flat[i], expected[i], 1e-6 * magnitude[i], "element " + i + " vs the flat mean");
    }
    assertEquals(0, transports.get(0).pendingChunks(), "every chunk was fetched and dropped");
  }

  @Test
  void aTwoLevelAverageRefusesRacksOfDifferentSizesAndRanksOutsideThem() {
    List<InMemoryTransport> transports = InMemoryTransport.create(5);
    GroupAllReduce mine = new GroupAllReduce(transports.get(0), SHORT_TIMEOUT);
    DsSyncException uneven = assertThrows(DsSyncException.class,
        () -> mine.averageInRacks(new int[][] {{0, 1, 2}, {3, 4}}, new float[4], 0, 0));
    assertTrue(uneven.getMessage().contains("[[0, 1, 2], [3, 4]]"), uneven.getMessage());
    DsSyncException outside = assertThrows(DsSyncException.class,
        () -> mine.averageInRacks(new int[][] {{1, 2}, {3, 4}}, new float[4], 0, 0));
    assertEquals(ErrorKind.CONFIG, outside.kind(), outside.getMessage());
  }

  /**
   * The reference of the two-level average: per chunk i of the rack slicing, each rack's rank-order
   * mean, then their sum in the order of the racks' i-th ranks, divided by the number of racks.
   */
  static float[] meanOfRackMeans(float[][] vectors, int[][] racks) {
    int size = vectors[0].length;
    int k = racks[0].length;
    float[][] rackMeans = new float[racks.length][];
    for (int r = 0; r < racks.length; r++) {
      rackMeans[r] = rankOrderMean(vectors, racks[r]);
    }
    float[] mean = new float[size];
    for (int i = 0; i < k; i++) {
      int chunk = i;
      Integer[] order = new Integer[racks.length];
      for (int r = 0; r < racks.length; r++) {
        order[r] = r;
      }
      Arrays.sort(order, (a, b) -> Integer.compare(racks[a][chunk], racks[b][chunk]));
      int from = Chunking.offset(size, k, i);
      for (int e = from; e < from + Chunking.length(size, k, i); e++) {
        float sum = rackMeans[order[0]][e];
        for (int q = 1; q < order.length; q++) {
          sum += rackMeans[order[q]][e];
        }
        mean[e] = sum / racks.length;
      }
    }
    return mean;
  }

  static int[] allRanks(int n) {
    int[] ranks = new int[n];
    for (int i = 0; i < n; i++) {
      ranks[i] = i;
    }
    return ranks;
  }

  /** Values across seven orders of magnitude, so that a different summation order changes bits. */
  static float[][] randomVectors(int n, int size, long seed) {
    Random random = new Random(seed);
    float[][] vectors = new float[n][size];
    for (float[] v : vectors) {
      for (int i = 0; i < size; i++) {
        v[i] = (float) (random.nextGaussian() * Math.pow(10, random.nextInt(7) - 3));
      }
    }
    return vectors;
  }

  /** The reference: a plain float sum in ascending rank order, divided by the group size. */
  static float[] rankOrderMean(float[][] vectors, int[] group) {
    int size = vectors[group[0]].length;
    float[] mean = new float[size];
    for (int i = 0; i < size; i++) {
      float sum = vectors[group[0]][i];
      for (int k = 1; k < group.length; k++) {
        sum += vectors[group[k]][i];
      }
      mean[i] = sum / group.length;
    }
    return mean;
  }
}
