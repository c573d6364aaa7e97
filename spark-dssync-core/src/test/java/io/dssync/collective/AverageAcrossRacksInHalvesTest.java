package io.dssync.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The two-level average whose level across racks sends each value's change since a shared
 * reference as IEEE halves ({@link CrossRackPrecision#FP16}).
 */
class AverageAcrossRacksInHalvesTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  static Stream<Arguments> layouts() {
    int[][][] racks = {
        {{0}, {1}},
        {{0, 1}, {2, 3}},
        {{1, 3}, {0, 2}},
        {{0, 1}, {2, 3}, {4, 5}},
        {{0}, {1}, {2}},
    };
    List<Arguments> cases = new ArrayList<>();
    for (int[][] layout : racks) {
      for (int size : new int[] {0, 1, 5, 10_007}) {
        cases.add(Arguments.of(layout, size));
      }
    }
    int part = Parts.PART_FLOATS;
    cases.add(Arguments.of(new int[][] {{0}, {1}}, 2 * (2 * part + 99) + 1)); // several packed parts per chunk
    return cases.stream();
  }

  /** Replicas a few steps away from the stage's start: the reference plus changes of every size. */
  private static float[][] replicas(int n, float[] reference, long seed) {
    Random random = new Random(seed);
    float[][] vectors = new float[n][reference.length];
    for (float[] v : vectors) {
      for (int i = 0; i < v.length; i++) {
        v[i] = reference[i] + (float) (random.nextGaussian() * Math.pow(10, random.nextInt(6) - 5));
      }
    }
    return vectors;
  }

  @ParameterizedTest(name = "racks {0}, size {1}")
  @MethodSource("layouts")
  void everyRankEndsWithTheSameFloatsWithinAHalfsRoundingOfTheExactAverage(int[][] racks, int size) {
    int n = Arrays.stream(racks).mapToInt(r -> r.length).sum();
    float[] reference = GroupAllReduceTest.randomVectors(1, size, 5)[0];
    float[][] vectors = replicas(n, reference, 31L * n + size);
    float[] exact = GroupAllReduceTest.meanOfRackMeans(vectors, racks);
    float[][] before = Arrays.stream(vectors).map(float[]::clone).toArray(float[][]::new);
    List<InMemoryTransport> transports = InMemoryTransport.create(n);
    Members.runAll(n, rank -> new GroupAllReduce(transports.get(rank), TIMEOUT)
        .averageInRacks(racks, vectors[rank], 7, 0, reference));
    for (int rank = 1; rank < n; rank++) {
      assertArrayEquals(vectors[0], vectors[rank], "rank " + rank + " holds other floats than rank 0");
    }
    assertNearExact(exact, vectors[0], before, reference);
    assertEquals(0, transports.get(0).pendingChunks(), "every chunk was fetched and dropped");
  }

  static Stream<Arguments> groups() {
    List<Arguments> cases = new ArrayList<>();
    for (int g = 2; g <= 5; g++) {
      for (int size : new int[] {0, 1, g - 1, 3 * g + 1, 10_007}) {
        cases.add(Arguments.of(g, size));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "g = {0}, size {1}")
  @MethodSource("groups")
  void aGroupAveragedInHalvesGivesEveryMemberTheSameFloatsNearTheExactMean(int g, int size) {
    float[] reference = GroupAllReduceTest.randomVectors(1, size, 6)[0];
    float[][] vectors = replicas(g, reference, 13L * g + size);
    float[][] before = Arrays.stream(vectors).map(float[]::clone).toArray(float[][]::new);
    float[] exact = GroupAllReduceTest.rankOrderMean(vectors, GroupAllReduceTest.allRanks(g));
    List<InMemoryTransport> transports = InMemoryTransport.create(g);
    Members.runAll(g, rank -> new GroupAllReduce(transports.get(rank), TIMEOUT, AllReduceAlgorithm.RING)
        .average(GroupAllReduceTest.allRanks(g), vectors[rank], 3, 0, reference));
    for (int rank = 1; rank < g; rank++) {
      assertArrayEquals(vectors[0], vectors[rank], "rank " + rank + " holds other floats than rank 0");
    }
    assertNearExact(exact, vectors[0], before, reference);
    assertEquals(0, transports.get(0).pendingChunks(), "every chunk was fetched and dropped");
  }

  /**
   * Each element of {@code averaged} within two roundings to a half of the largest change
   * {@code before} it (each at most 2^-11 of the value, or 2^-25 below the normal halves), plus the
   * float sums around them, of {@code exact}.
   */
  private static void assertNearExact(float[] exact, float[] averaged, float[][] before, float[] reference) {
    for (int i = 0; i < exact.length; i++) {
      double largestChange = 0;
      for (float[] v : before) {
        largestChange = Math.max(largestChange, Math.abs(v[i] - reference[i]));
      }
      double bound = largestChange * 0x1p-10 + 0x1p-24 + 4 * Math.ulp((float) (Math.abs(reference[i]) + largestChange));
      assertEquals(exact[i], averaged[i], bound, "element " + i);
    }
  }

  @Test
  void thePairAcrossRacksSendsHalfTheBytesOfTheExactAverage() {
    int size = 40_000;
    float[] reference = GroupAllReduceTest.randomVectors(1, size, 8)[0];
    long[][] sent = new long[2][];
    for (float[] halfReference : new float[][] {null, reference}) {
      float[][] vectors = replicas(2, reference, 9);
      List<InMemoryTransport> transports = InMemoryTransport.create(2);
      Members.runAll(2, rank -> new GroupAllReduce(transports.get(rank), TIMEOUT)
          .averageInRacks(new int[][] {{0}, {1}}, vectors[rank], 0, 0, halfReference));
      sent[halfReference == null ? 0 : 1] = transports.stream().mapToLong(t -> t.stats().bytesSent.get()).toArray();
    }
    assertEquals(Float.BYTES * size, sent[0][0], "FP32: half the vector out, its mean back");
    assertEquals(Float.BYTES * size / 2, sent[1][0], "halves: 2 bytes a value");
    assertEquals(sent[1][0], sent[1][1]);
  }

  @Test
  void aChangeBeyondTheLargestHalfFailsTheStepNamingTheParameter() {
    float[] reference = new float[100];
    float[][] vectors = new float[2][100];
    vectors[1][77] = 1e6f; // rank 1's change goes out in the reduce-scatter: chunk 0 holds elements 0..49
    vectors[1][20] = 7e4f;
    List<InMemoryTransport> transports = InMemoryTransport.create(2);
    Throwable[] failures = Members.run(2, rank -> new GroupAllReduce(transports.get(rank), Duration.ofMillis(500))
        .averageInRacks(new int[][] {{0}, {1}}, vectors[rank], 12, 0, reference));
    DsSyncException e = assertInstanceOf(DsSyncException.class, failures[1]);
    assertEquals(ErrorKind.DIVERGED, e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains("parameter 20 changed by 70000.0") && e.getMessage().contains("step 12")
        && e.getMessage().contains("--cross-rack-precision fp32"), e.getMessage());
  }

  @Test
  void aReferenceOfAnotherLengthIsRefused() {
    List<InMemoryTransport> transports = InMemoryTransport.create(2);
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> new GroupAllReduce(transports.get(0), TIMEOUT).averageInRacks(new int[][] {{0}, {1}}, new float[10], 0, 0,
            new float[9]));
    assertTrue(e.getMessage().contains("length 9 but 10"), e.getMessage());
  }
}
