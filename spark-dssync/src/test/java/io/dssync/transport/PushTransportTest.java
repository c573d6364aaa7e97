package io.dssync.transport;

import static io.dssync.transport.ClusterChecks.othersThan;
import static io.dssync.transport.ClusterChecks.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.GroupAllReduce;
import io.dssync.collective.InMemoryTransport;
import io.dssync.collective.MessageId;
import io.dssync.collective.Parts;
import io.dssync.collective.RingAllReduceTest;
import io.dssync.collective.Transport;
import io.dssync.collective.TransportStats;
import io.dssync.errors.DsSyncException;
import io.dssync.spark.DriverBlockReports;
import io.dssync.testing.TestSpark;
import io.dssync.transport.ClusterChecks.Report;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkException;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.storage.TestBlockId;
import org.apache.spark.util.io.ChunkedByteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import scala.reflect.ClassTag$;

/**
 * The push transport across four executor JVMs ({@code local-cluster}), one barrier task per
 * executor, so every part really crosses between processes: over the network, or (the default
 * between executors of one host) through shared memory; the main exchanges run both ways.
 */
class PushTransportTest {
  private static final int N = TestSpark.EXECUTORS;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @BeforeAll
  static void startCluster() {
    TestSpark.session();
  }

  /**
   * Every test must leave no open transport and no shared-memory folder behind on any executor
   * (checked by a separate stage).
   */
  @AfterEach
  void noTransportOutlivesTheStage() {
    List<Integer> open = TestSpark.runBarrier(N, ctx -> OpenTransports.inThisJvm());
    assertEquals(List.of(0, 0, 0, 0), open, "transports still open on the executors of ranks 0..3");
    List<String> folders = TestSpark.runBarrier(N, ctx -> sharedFoldersOfThisJvm());
    assertEquals(List.of("", "", "", ""), folders,
        "shared-memory folders left by the executors of ranks 0..3");
  }

  @ParameterizedTest(name = "shared memory between executors: {0}")
  @ValueSource(booleans = {false, true})
  void chunksArriveBitExactAcrossExecutorJvmsAndNothingStaysOpenAfterward(boolean sharedMemory) {
    int[] lengths = {1, 7, 1000, 65_537, 0, 3};
    List<Report> reports = TestSpark.runBarrier(N, ctx -> {
      int rank = ctx.partitionId();
      int mismatches = 0;
      TransportStats stats;
      try (PushTransport t = PushTransport.open(ctx, TIMEOUT, sharedMemory)) {
        checkPath(t, sharedMemory);
        for (int step = 0; step < lengths.length; step++) {
          int length = lengths[step];
          MessageId id = new MessageId(step, 0, 0, 0);
          t.publish(id, pattern(rank, step, length), 0, length, othersThan(rank, N));
          for (int sender : othersThan(rank, N)) {
            // Guard elements on both sides prove the fetch writes exactly [offset, offset+length).
            float[] got = new float[length + 2];
            got[0] = 42f;
            got[length + 1] = 43f;
            t.fetch(sender, id, got, 1, length, TIMEOUT);
            float[] expected = new float[length + 2];
            expected[0] = 42f;
            expected[length + 1] = 43f;
            System.arraycopy(pattern(sender, step, length), 0, expected, 1, length);
            if (!sameBits(expected, got)) {
              mismatches++;
            }
          }
        }
        stats = t.stats();
      }
      return new Report(SparkEnv.get().executorId(), mismatches, stats.bytesReceived.get(),
          stats.bytesSent.get(), OpenTransports.inThisJvm());
    });

    long perRankBytes = 4L * (N - 1) * Arrays.stream(lengths).sum();
    Set<String> executors = new HashSet<>();
    for (int r = 0; r < N; r++) {
      Report report = reports.get(r);
      executors.add(report.executorId());
      assertEquals(0, report.mismatches(), "chunks rank " + r + " received that differ in some bit");
      assertEquals(perRankBytes, report.bytesReceived(), "bytes rank " + r + " received");
      assertEquals(perRankBytes, report.bytesSent(), "bytes rank " + r + " served to readers");
      assertEquals(0, report.openAfterClose(), "transports open on rank " + r + "'s executor after close()");
    }
    assertEquals(N, executors.size(), "each rank must run in its own executor JVM: " + executors);
  }

  @Test
  void exchangeStepsMakeNoDriverBlockUpdates() throws Exception {
    int steps = 50;
    DriverBlockReports events = new DriverBlockReports();
    SparkContext sc = TestSpark.session().sparkContext();
    sc.addSparkListener(events);
    try {
      List<Long> received = TestSpark.runBarrier(N, ctx -> {
        int rank = ctx.partitionId();
        try (PushTransport t = PushTransport.open(ctx, TIMEOUT)) {
          float[] in = new float[256];
          for (int step = 0; step < steps; step++) {
            MessageId id = new MessageId(step, 0, 0, rank);
            t.publish(id, pattern(rank, step, 256), 0, 256, othersThan(rank, N));
            for (int sender : othersThan(rank, N)) {
              t.fetch(sender, new MessageId(step, 0, 0, sender), in, 0, 256, TIMEOUT);
            }
          }
          return t.stats().bytesReceived.get();
        }
      });
      sc.listenerBus().waitUntilEmpty(TIMEOUT.toMillis());
      for (long bytes : received) {
        assertEquals(4L * 256 * (N - 1) * steps, bytes, "every step moved its chunks");
      }
      // The push transport stores no block; a put with tellMaster=true, a removal through the
      // master or a fetch of a block that is not there yet would each show up here (see the
      // control test below).
      assertEquals(List.of(), events.names(), "block updates the driver saw for dssync blocks");
    } finally {
      sc.removeSparkListener(events);
    }
  }

  /** Control for the test above: the listener does see the two ways a step could reach the driver. */
  @Test
  void reportedPutAndBlindFetchAreSeenByTheDriver() throws Exception {
    DriverBlockReports events = new DriverBlockReports();
    SparkContext sc = TestSpark.session().sparkContext();
    sc.addSparkListener(events);
    try {
      List<String> outcomes = TestSpark.runBarrier(N, ctx -> {
        BlockManager bm = SparkEnv.get().blockManager();
        String[] addresses = ctx.allGather(bm.blockManagerId().executorId() + " "
            + bm.blockManagerId().host() + " " + bm.blockManagerId().port());
        String outcome = "";
        if (ctx.partitionId() == 0) {
          BlockId reported = new TestBlockId("dssync-control-reported");
          bm.putBytes(reported, new ChunkedByteBuffer(java.nio.ByteBuffer.allocate(8)),
              StorageLevel.MEMORY_ONLY_SER(), true, ClassTag$.MODULE$.Any());
          bm.removeBlock(reported, true);
        } else if (ctx.partitionId() == 1) {
          String[] peer = addresses[0].split(" ");
          String missing = new TestBlockId("dssync-control-missing").name();
          try {
            bm.blockTransferService().fetchBlockSync(peer[1], Integer.parseInt(peer[2]), peer[0], missing, null);
            outcome = "fetched a block that does not exist";
          } catch (Exception expected) {
            outcome = "";
          }
        }
        ctx.barrier(); // rank 0 must not remove anything while rank 1 is still asking
        return outcome;
      });
      assertEquals(List.of("", "", "", ""), outcomes);
      sc.listenerBus().waitUntilEmpty(TIMEOUT.toMillis());
      Set<String> seen = new HashSet<>(events.names());
      assertTrue(seen.contains(DriverBlockReports.NAME_PREFIX + "control-reported"), "reported put, seen: " + seen);
      assertTrue(seen.contains(DriverBlockReports.NAME_PREFIX + "control-missing"), "blind fetch, seen: " + seen);
    } finally {
      sc.removeSparkListener(events);
    }
  }

  @Test
  void peerThatNeverPublishesFailsTheStageNamingRankAndPeer() throws Exception {
    SparkException failure = assertThrows(SparkException.class, () -> TestSpark.runBarrier(N, ctx -> {
      try (PushTransport t = PushTransport.open(ctx, TIMEOUT)) {
        float[] in = new float[4];
        if (ctx.partitionId() == 0) {
          t.fetch(1, new MessageId(7, 0, 0, 0), in, 0, 4, Duration.ofSeconds(2));
        } else if (ctx.partitionId() == 2) {
          // Waits far longer than the test: it only ends because Spark kills the failed stage.
          t.fetch(1, new MessageId(7, 0, 0, 2), in, 0, 4, Duration.ofMinutes(10));
        }
        return "done";
      }
    }));
    String message = String.valueOf(failure.getMessage());
    assertTrue(message.contains("Rank 0 waited 2000 ms at step 7") && message.contains("from rank 1"),
        "the error must name the waiting rank, the step and the silent peer: " + message);
    awaitNoRunningTasks(TestSpark.session().sparkContext(), Duration.ofSeconds(60));
  }

  /**
   * Rank 1 sends nothing (busy in its own work); rank 2 waits for it and gives up after 1 s
   * (swallowing the error, so the stage goes on); rank 0 waits for rank 2 until it fails at 3 s;
   * rank 3 waits for rank 0 and times out first, at 2 s. Its error follows the chain from rank 0
   * (still waiting) through rank 2 (gave up; its channel still answers) to rank 1 (waits for nobody).
   */
  @Test
  void aTimeoutErrorFollowsTheChainOfWaitsToTheRankThatHoldsItUp() throws Exception {
    SparkException failure = assertThrows(SparkException.class, () -> TestSpark.runBarrier(N, ctx -> {
      try (PushTransport t = PushTransport.open(ctx, TIMEOUT)) {
        float[] in = new float[4];
        switch (ctx.partitionId()) {
          case 1 -> busyUntilKilled(ctx);
          case 2 -> {
            try {
              t.fetch(1, new MessageId(7, 0, 0, 1), in, 0, 4, Duration.ofSeconds(1));
              throw new IllegalStateException("rank 1 sent a part it never published");
            } catch (DsSyncException expected) {
              // gave up; the transport closes below and its channel goes on answering a while
            }
          }
          case 0 -> t.fetch(2, new MessageId(8, 0, 1, 0), in, 0, 4, Duration.ofSeconds(3));
          default -> t.fetch(0, new MessageId(9, 0, 0, 3), in, 0, 4, Duration.ofSeconds(2));
        }
        return "done";
      }
    }));
    String message = String.valueOf(failure.getMessage());
    assertTrue(message.matches("(?s).*Rank 3 waited 2000 ms at step 9 for reduce-scatter chunk 3 \\(round 0\\) from"
        + " rank 0, which did not arrive\\. Behind it: rank 0 has waited \\d+ ms at step 8 for all-gather chunk 0"
        + " \\(round 0\\) from rank 2; rank 2 gave up after \\d+ ms at step 7 waiting for reduce-scatter chunk 1"
        + " \\(round 0\\) from rank 1; rank 1 is not waiting for any peer.*"), message);
    awaitNoRunningTasks(TestSpark.session().sparkContext(), Duration.ofSeconds(60));
  }

  /**
   * Through shared memory a reader acknowledges a part only when its task thread lands it. Rank 0
   * is busy and never does; rank 1 sent it a part and gives up at close after 2 s: its error names
   * the part, the reader, and what the reader answered it was doing.
   */
  @Test
  void aPartNeverAcknowledgedFailsCloseNamingTheReaderAndWhatItIsDoing() throws Exception {
    SparkException failure = assertThrows(SparkException.class, () -> TestSpark.runBarrier(N, ctx -> {
      Duration closeTimeout = ctx.partitionId() == 1 ? Duration.ofSeconds(2) : TIMEOUT;
      try (PushTransport t = PushTransport.open(ctx, closeTimeout, true)) {
        checkPath(t, true);
        ctx.barrier(); // a rank with nothing to do must not close (and remove its folder) before the others opened
        if (ctx.partitionId() == 0) {
          busyUntilKilled(ctx);
        } else if (ctx.partitionId() == 1) {
          t.publish(new MessageId(7, 0, 0, 0), new float[4], 0, 4, new int[] {0});
        }
        return "done";
      }
    }));
    String message = String.valueOf(failure.getMessage());
    assertTrue(message.contains("Rank 1 waited 2000 ms at step 7 for the acknowledgement of reduce-scatter chunk 0"
        + " (round 0) from rank 0, which did not arrive. Behind it: rank 0 is not waiting for any peer"), message);
    awaitNoRunningTasks(TestSpark.session().sparkContext(), Duration.ofSeconds(60));
  }

  /**
   * Rank 1 waits at close for rank 0 (busy) to acknowledge a part; rank 3 waits for a part from
   * rank 1 and times out first. Asked why, rank 1 answers that it waits for rank 0's
   * acknowledgement, not that it is busy, and the chain goes on to rank 0.
   */
  @Test
  void aRankWaitingForAnAcknowledgementSaysSoWhenAPeerAsks() throws Exception {
    SparkException failure = assertThrows(SparkException.class, () -> TestSpark.runBarrier(N, ctx -> {
      try (PushTransport t = PushTransport.open(ctx, TIMEOUT, true)) {
        checkPath(t, true);
        ctx.barrier(); // a rank with nothing to do must not close (and remove its folder) before the others opened
        switch (ctx.partitionId()) {
          case 0 -> busyUntilKilled(ctx);
          case 1 -> t.publish(new MessageId(7, 0, 0, 0), new float[4], 0, 4, new int[] {0});
          case 3 -> t.fetch(1, new MessageId(9, 0, 1, 3), new float[4], 0, 4, Duration.ofSeconds(2));
          default -> { }
        }
        return "done";
      }
    }));
    String message = String.valueOf(failure.getMessage());
    assertTrue(message.matches("(?s).*Rank 3 waited 2000 ms at step 9 for all-gather chunk 3 \\(round 0\\) from"
        + " rank 1, which did not arrive\\. Behind it: rank 1 has waited \\d+ ms at step 7 for the acknowledgement"
        + " of reduce-scatter chunk 0 \\(round 0\\) by rank 0; rank 0 is not waiting for any peer.*"), message);
    awaitNoRunningTasks(TestSpark.session().sparkContext(), Duration.ofSeconds(60));
  }

  /** Not waiting for any part (so, through shared memory, acknowledging none) until Spark kills the stage. */
  private static void busyUntilKilled(org.apache.spark.BarrierTaskContext ctx) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < end) {
      ctx.killTaskIfInterrupted();
      Thread.sleep(50);
    }
  }

  @ParameterizedTest(name = "shared memory between executors: {0}")
  @ValueSource(booleans = {false, true})
  void groupAllReduceAveragesExactlyAcrossExecutorJvms(boolean sharedMemory) {
    // Not divisible by 2 or 4 (chunks of unequal length) and long enough that every chunk travels
    // in several parts (Parts.PART_FLOATS), the last one short.
    int size = 4 * Parts.PART_FLOATS + 100_003;
    int timedSteps = 20;
    List<Reduced> results = TestSpark.runBarrier(N, ctx -> {
      int rank = ctx.partitionId();
      float[] vector = start(rank, size);
      try (PushTransport t = PushTransport.open(ctx, TIMEOUT, sharedMemory)) {
        checkPath(t, sharedMemory);
        GroupAllReduce reduce = new GroupAllReduce(t, TIMEOUT);
        reduce.average(rank < 2 ? new int[] {0, 1} : new int[] {2, 3}, vector, 0, 0);
        reduce.average(new int[] {0, 1, 2, 3}, vector, 1, 0);
        float[] result = vector.clone();
        TransportStats.Snapshot before = t.stats().snapshot();
        long begin = System.nanoTime();
        for (int step = 2; step < 2 + timedSteps; step++) {
          reduce.average(step % 2 == 0 ? new int[] {0, 1, 2, 3} : rank < 2 ? new int[] {0, 1} : new int[] {2, 3},
              vector, step, 0);
        }
        double msPerStep = (System.nanoTime() - begin) / 1e6 / timedSteps;
        TransportStats.Snapshot d = t.stats().snapshot().minus(before);
        // Information only (never asserted): printed by the driver below.
        String timing = String.format("rank %d: group all-reduce of %d floats: %.1f ms/step"
                + " (wait %.1f ms, transfer %.1f ms, %d bytes received per step)",
            rank, size, msPerStep, d.waitNanos() / 1e6 / timedSteps, d.transferNanos() / 1e6 / timedSteps,
            d.bytesReceived() / timedSteps);
        return new Reduced(result, timing);
      }
    });

    float[][] pairs = new float[N][];
    for (int r = 0; r < N; r++) {
      pairs[r] = start(r, size);
    }
    float[] a = mean(pairs[0], pairs[1]);
    float[] b = mean(pairs[2], pairs[3]);
    float[] expected = new float[size];
    for (int i = 0; i < size; i++) {
      // Same order as GroupAllReduce: ascending members, FP32 sum, then divide by g.
      expected[i] = (((a[i] + a[i]) + b[i]) + b[i]) / 4f;
    }
    for (int r = 0; r < N; r++) {
      assertArrayEquals(expected, results.get(r).vector(), "rank " + r + " after {0,1},{2,3} then {0,1,2,3}");
      System.out.println("[transport] " + results.get(r).timing());
    }
  }

  @ParameterizedTest(name = "shared memory between executors: {0}")
  @ValueSource(booleans = {false, true})
  void aTwoLevelAverageAcrossExecutorJvmsGivesEveryRankTheMeanOfRackMeans(boolean sharedMemory) {
    // Racks whose ranks interleave, and chunks of several parts: every phase crosses JVMs.
    int size = 2 * Parts.PART_FLOATS + 12_345;
    int[][] racks = {{0, 2}, {1, 3}};
    List<Reduced> results = TestSpark.runBarrier(N, ctx -> {
      float[] vector = start(ctx.partitionId(), size);
      try (PushTransport t = PushTransport.open(ctx, TIMEOUT, sharedMemory)) {
        checkPath(t, sharedMemory);
        new GroupAllReduce(t, TIMEOUT).averageInRacks(racks, vector, 0, 0);
        return new Reduced(vector, "");
      }
    });
    float[] expected = mean(mean(start(0, size), start(2, size)), mean(start(1, size), start(3, size)));
    for (int r = 0; r < N; r++) {
      assertArrayEquals(expected, results.get(r).vector(), "rank " + r + " after racks {0,2},{1,3}");
    }
  }

  @ParameterizedTest(name = "shared memory between executors: {0}")
  @ValueSource(booleans = {false, true})
  void aRingAcrossExecutorJvmsSumsEachChunkFromItsOwnersSuccessorOnEveryRank(boolean sharedMemory) {
    // Chunks of several parts, a ring of four and then one of three that leaves rank 0 out.
    int size = 3 * Parts.PART_FLOATS + 54_321;
    int[] all = {0, 1, 2, 3};
    int[] three = {1, 2, 3};
    List<Reduced> results = TestSpark.runBarrier(N, ctx -> {
      int rank = ctx.partitionId();
      float[] vector = start(rank, size);
      try (PushTransport t = PushTransport.open(ctx, TIMEOUT, sharedMemory)) {
        checkPath(t, sharedMemory);
        GroupAllReduce ring = new GroupAllReduce(t, TIMEOUT, AllReduceAlgorithm.RING);
        ring.average(all, vector, 0, 0);
        if (rank != 0) {
          vector[rank] += rank; // so the second ring's members start from different vectors
          ring.average(three, vector, 1, 0);
        }
        return new Reduced(vector, "");
      }
    });
    float[][] vectors = new float[N][];
    for (int r = 0; r < N; r++) {
      vectors[r] = start(r, size);
    }
    float[] afterAll = RingAllReduceTest.ringOrderMean(vectors, all);
    assertArrayEquals(afterAll, results.get(0).vector(), "rank 0 after the ring of four");
    for (int r : three) {
      vectors[r] = afterAll.clone();
      vectors[r][r] += r;
    }
    float[] afterThree = RingAllReduceTest.ringOrderMean(vectors, three);
    for (int r : three) {
      assertArrayEquals(afterThree, results.get(r).vector(), "rank " + r + " after the ring of three");
    }
  }

  @ParameterizedTest(name = "shared memory between executors: {0}")
  @ValueSource(booleans = {false, true})
  void halvesCrossExecutorJvmsBitForBitAsBetweenThreads(boolean sharedMemory) throws Exception {
    // Changes of every size and sign, zero and -0 among them, so the packed floats take every kind
    // of bit pattern (subnormals too); a pair, a group of three and a two-level average over racks.
    int size = 2 * Parts.PART_FLOATS + 4_321;
    float[] reference = changes(-1, size);
    int[][] racks = {{0, 2}, {1, 3}};
    List<Reduced> results = TestSpark.runBarrier(N, ctx -> {
      int rank = ctx.partitionId();
      try (PushTransport t = PushTransport.open(ctx, TIMEOUT, sharedMemory)) {
        checkPath(t, sharedMemory);
        return new Reduced(averagedInHalves(t, new GroupAllReduce(t, TIMEOUT), reference, racks), "");
      }
    });
    List<InMemoryTransport> threads = InMemoryTransport.create(N);
    ExecutorService pool = Executors.newFixedThreadPool(N);
    try {
      List<Future<float[]>> expected = new ArrayList<>();
      for (InMemoryTransport t : threads) {
        expected.add(pool.submit(() -> averagedInHalves(t, new GroupAllReduce(t, TIMEOUT), reference, racks)));
      }
      for (int r = 0; r < N; r++) {
        float[] want = expected.get(r).get(60, TimeUnit.SECONDS);
        float[] got = results.get(r).vector();
        for (int i = 0; i < size; i++) {
          if (Float.floatToRawIntBits(want[i]) != Float.floatToRawIntBits(got[i])) {
            throw new AssertionError("rank " + r + ", element " + i + ": " + got[i] + " across JVMs, " + want[i]
                + " between threads");
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Rank t.rank()'s vector after three averages in halves of the change since {@code reference}. */
  private static float[] averagedInHalves(Transport t, GroupAllReduce reduce,
      float[] reference, int[][] racks) {
    int rank = t.rank();
    float[] vector = changes(rank, reference.length);
    for (int i = 0; i < vector.length; i++) {
      vector[i] += reference[i];
    }
    reduce.average(rank < 2 ? new int[] {0, 1} : new int[] {2, 3}, vector, 0, 0, reference);
    if (rank != 0) {
      reduce.average(new int[] {1, 2, 3}, vector, 1, 0, reference);
    }
    reduce.averageInRacks(racks, vector, 2, 0, reference);
    return vector;
  }

  /** Values of every magnitude from 1e-9 to 1e3 and both signs, with exact zeros and -0 (seeded by rank). */
  private static float[] changes(int rank, int size) {
    SplittableRandom random = new SplittableRandom(rank + 100);
    float[] v = new float[size];
    for (int i = 0; i < size; i++) {
      int kind = random.nextInt(20);
      v[i] = kind == 0 ? 0f : kind == 1 ? -0f
          : (float) ((random.nextBoolean() ? 1 : -1) * Math.pow(10, random.nextDouble(-9, 3)));
    }
    return v;
  }

  /** Fails the task unless every other rank is reached the way the test asked (all ranks share one host). */
  private static void checkPath(PushTransport t, boolean sharedMemory) {
    for (int r : othersThan(t.rank(), N)) {
      if (t.sameJvm(r) || t.sharedMemory(r) != sharedMemory) {
        throw new IllegalStateException("rank " + t.rank() + " reaches rank " + r + " in the same JVM or "
            + (sharedMemory ? "not " : "") + "through shared memory");
      }
    }
  }

  /** The shared-memory folders of this executor JVM (named dssync-<namespace>-<pid>-<inbox>), comma-separated. */
  private static String sharedFoldersOfThisJvm() throws java.io.IOException {
    String pid = "-" + ProcessHandle.current().pid() + "-";
    try (java.util.stream.Stream<java.nio.file.Path> all =
        java.nio.file.Files.list(java.nio.file.Path.of("/dev/shm"))) {
      return String.join(",", all.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("dssync-") && n.contains(pid)).toList());
    }
  }

  /** One rank's all-reduce result and its step timing. */
  record Reduced(float[] vector, String timing) implements java.io.Serializable {}

  private static float[] start(int rank, int size) {
    float[] v = new float[size];
    for (int i = 0; i < size; i++) {
      v[i] = (rank + 1) * 0.5f + i * 0.001f;
    }
    return v;
  }

  private static float[] mean(float[] x, float[] y) {
    float[] out = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = (x[i] + y[i]) / 2f;
    }
    return out;
  }

  private static boolean sameBits(float[] a, float[] b) {
    if (a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (Float.floatToRawIntBits(a[i]) != Float.floatToRawIntBits(b[i])) {
        return false;
      }
    }
    return true;
  }

  /** A killed barrier task that ignored the kill would keep its slot; wait (with a deadline) for all to end. */
  private static void awaitNoRunningTasks(SparkContext sc, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (true) {
      int running = Arrays.stream(sc.statusTracker().getExecutorInfos()).mapToInt(e -> e.numRunningTasks()).sum();
      if (running == 0) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(running + " task(s) of the failed stage still run after " + limit.toSeconds()
            + " s: a waiting transport did not notice that Spark killed its task");
      }
      Thread.sleep(100);
    }
  }
}
