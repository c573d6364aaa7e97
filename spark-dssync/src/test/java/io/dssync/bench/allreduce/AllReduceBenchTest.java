package io.dssync.bench.allreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.launch.CommandFlags;
import io.dssync.bench.CsvRows;
import io.dssync.bench.ResultsFolder;
import io.dssync.collective.HostOrder;
import io.dssync.errors.DsSyncException;
import io.dssync.testing.TestSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The allreduce mode on tiny settings over the shared local-cluster: well-formed, consistent output. */
class AllReduceBenchTest {
  @TempDir Path out;

  @Test
  void tinyRunWritesConsistentTableChartAndSummary() throws Exception {
    AllReducePlan plan = AllReduceBench.plan(CommandFlags.parse(new String[] {"--workers", "4", "--sizes", "4K,256K",
        "--groups", "2,4", "--warmup", "1", "--iters", "2", "--raw-bytes", "1M", "--raw-repeats", "2",
        "--timeout-ms", "60000"}, Set.of("--workers", "--sizes", "--groups", "--warmup", "--iters", "--raw-bytes",
        "--raw-repeats", "--timeout-ms")), "local-cluster[4,1,1536]");
    AllReduceRun run = AllReduceBench.measure(TestSpark.session(), plan);
    List<String> verdicts = new ArrayList<>();
    Path summary = AllReduceReport.write(ResultsFolder.create(out, "allreduce", "test"), "loopback", plan, run,
        "none", null, verdicts);

    CsvRows csv = CsvRows.read(out.resolve("allreduce/allreduce.csv"));
    for (String column : List.of("network", "workers", "group_size", "bytes", "time_ms_median", "time_ms_min",
        "algbw_MBps", "busbw_MBps", "raw_tcp_MBps", "busbw_over_raw")) {
      assertTrue(csv.hasColumn(column), "missing column " + column);
    }
    assertEquals(2 * 2, csv.size());
    double raw = csv.number(0, "raw_tcp_MBps");
    assertTrue(raw > 0 && Double.isFinite(raw), "raw TCP throughput " + raw);
    assertEquals(Math.max(run.rawBeforeMBps(), run.rawAfterMBps()), raw, 0.001 * raw + 0.06);
    for (int r = 0; r < csv.size(); r++) {
      assertEquals("loopback", csv.text(r, "network"));
      assertEquals("auto", csv.text(r, "all_reduce"), "the algorithm, for bench simulate's calibration");
      assertEquals(4, csv.number(r, "workers"));
      int g = (int) csv.number(r, "group_size");
      assertTrue(g >= 2 && g <= 4);
      assertEquals(4 / g, csv.number(r, "groups_in_parallel"));
      double bytes = csv.number(r, "bytes");
      assertTrue(bytes == 4096 || bytes == 262144, "bytes " + bytes);
      double median = csv.number(r, "time_ms_median");
      double min = csv.number(r, "time_ms_min");
      assertTrue(min > 0 && min <= median, "min " + min + " median " + median);
      double algbw = csv.number(r, "algbw_MBps");
      assertEquals(bytes / (median / 1e3) / 1e6, algbw, 0.01 * algbw + 0.06);
      double busbw = csv.number(r, "busbw_MBps");
      assertEquals(algbw * 2 * (g - 1) / g, busbw, 0.01 * busbw + 0.06);
      assertEquals(busbw / raw, csv.number(r, "busbw_over_raw"), 0.01 * busbw / raw + 1e-3);
      assertEquals(raw, csv.number(r, "raw_tcp_MBps"));
      assertTrue(csv.number(r, "wait_ms_per_op") >= 0 && csv.number(r, "transfer_ms_per_op") > 0);
      assertTrue(csv.number(r, "cpu_ms_per_op") >= 0 && csv.number(r, "other_ms_per_op") >= 0);
    }
    assertEquals(2, verdicts.size());
    assertTrue(Files.size(out.resolve("allreduce/busbw-vs-size.png")) > 1000);
    String md = Files.readString(summary);
    assertTrue(md.contains("| network | workers | group_size |") && md.contains("busbw-vs-size.png"), md);
  }

  @Test
  void badFlagsNameTheFlagAndTheFix() {
    Set<String> known = Set.of("--workers", "--sizes", "--groups", "--network");
    DsSyncException g = assertThrows(DsSyncException.class, () -> AllReduceBench.plan(
        CommandFlags.parse(new String[] {"--workers", "4", "--groups", "2,5"}, known), "local[4]"));
    assertTrue(g.getMessage().contains("--groups") && g.getMessage().contains("2 to 4"), g.getMessage());
    DsSyncException s = assertThrows(DsSyncException.class, () -> AllReduceBench.plan(
        CommandFlags.parse(new String[] {"--sizes", "4K,6"}, known), "local[4]"));
    assertTrue(s.getMessage().contains("--sizes") && s.getMessage().contains("multiples of 4"), s.getMessage());
    DsSyncException u = assertThrows(DsSyncException.class, () -> CommandFlags.parse(new String[] {"--size", "4K"},
        known));
    assertTrue(u.getMessage().contains("--size"), u.getMessage());
    DsSyncException n = assertThrows(DsSyncException.class, () -> AllReduceBench.network(
        CommandFlags.parse(new String[] {"--network", "a b"}, known)));
    assertTrue(n.getMessage().contains("--network"), n.getMessage());
  }

  @Test
  void defaultsFollowTheMasterAndTheIssue() {
    assertEquals(4, AllReduceBench.defaultWorkers("local-cluster[4,1,1536]"));
    assertEquals(8, AllReduceBench.defaultWorkers("local-cluster[8, 1, 1024]"));
    assertEquals(List.of(4096L, 16384L), AllReduceBench.DEFAULT_SIZES.subList(0, 2));
    assertEquals(256L << 20, AllReduceBench.DEFAULT_SIZES.get(AllReduceBench.DEFAULT_SIZES.size() - 1));
    assertEquals(64L << 20, CommandFlags.parseBytes("64M"));
    assertEquals(-1, CommandFlags.parseBytes("64X"));
    assertEquals("127.0.0.1", AllReduceWorker.hostOf("127.0.0.1:40123"));
    assertEquals("::1", AllReduceWorker.hostOf("[::1]:40123"));
  }

  @Test
  void groupsAreConsecutiveAndLeftoverRanksSitOut() {
    AllReducePlan plan = new AllReducePlan("r", 5, List.of(4096L), List.of(2), 0, 1, 1000, 1024, 1);
    assertEquals(List.of(2, 3), List.of(plan.groupOf(2, 2)[0], plan.groupOf(3, 2)[1]));
    assertEquals(null, plan.groupOf(4, 2));
    // In host order, with IPv4 octets compared as numbers: two racks of two hosts, placed out of order.
    int[] order = HostOrder.byHost(new String[] {"10.0.10.11", "10.0.2.12", "10.0.2.11", "10.0.10.12"});
    assertArrayEquals(new int[] {2, 1, 0, 3}, order);
    assertArrayEquals(new int[] {1, 2}, AllReducePlan.groupOf(2, 2, order));
    assertArrayEquals(new int[] {0, 3}, AllReducePlan.groupOf(3, 2, order));
    // Executors sharing a host (local-cluster) keep rank order.
    assertArrayEquals(new int[] {0, 1, 2}, HostOrder.byHost(new String[] {"127.0.0.1", "127.0.0.1", "127.0.0.1"}));
    // Without --warmup, small messages get enough warm-up ops to pass 4 GiB (2 to 20,000); with it, exactly that.
    AllReducePlan warm = new AllReducePlan("w", 4, List.of(4096L), List.of(2), AllReducePlan.AUTO_WARMUP, 1, 1000,
        1024, 1);
    assertEquals(20_000, warm.warmupOps(4096));
    assertEquals(4096, warm.warmupOps(1L << 20));
    assertEquals(64, warm.warmupOps(64L << 20));
    assertEquals(16, warm.warmupOps(256L << 20));
    assertEquals(2, warm.warmupOps(4L << 30));
    assertEquals(2, warm.warmupOps(8L << 30));
    AllReducePlan given = new AllReducePlan("g", 4, List.of(4096L), List.of(2), 3, 1, 1000, 1024, 1);
    assertEquals(3, given.warmupOps(4096));
    assertEquals(3, given.warmupOps(64L << 20));
    // Every cell has its own range of step ids, as long as its most ops (warm-up, its checks, timed).
    AllReducePlan two = new AllReducePlan("t", 4, List.of(1L << 20), List.of(2, 4), AllReducePlan.AUTO_WARMUP, 5,
        1000, 1024, 1);
    assertEquals(0, two.firstStep(two.cells().get(0)));
    assertEquals(4096 + AllReducePlan.MAX_WARMUP_CHECKS + 5, two.firstStep(two.cells().get(1)));
  }

  @Test
  void anAutomaticWarmUpDoublesItsBatchesAndStopsWhereTheTimeBudgetEnds() {
    long budget = AllReducePlan.WARMUP_BUDGET_MS;
    assertEquals(4, AllReducePlan.nextWarmupBatch(2, 2, 20_000, 1.0));
    assertEquals(8, AllReducePlan.nextWarmupBatch(4, 6, 20_000, 3.0));
    // Never past the count planned for the size.
    assertEquals(10, AllReducePlan.nextWarmupBatch(512, 1014, 1024, 500.0));
    // 1,000 ops took budget - 1 s, 29 ms each: 34 more fit in the second left.
    assertEquals(34, AllReducePlan.nextWarmupBatch(512, 1000, 20_000, budget - 1000.0));
    // On a 100 Mbit/s link a 16 MiB op takes seconds: after two of 4 s each, five more fit (not 4 GiB's 254)
    // and the doubled batch is four; after those six, 24 s, one more.
    assertEquals(4, AllReducePlan.nextWarmupBatch(2, 2, 256, 8000.0));
    assertEquals(1, AllReducePlan.nextWarmupBatch(4, 6, 256, 24_000.0));
    assertEquals(0, AllReducePlan.nextWarmupBatch(8, 30, 20_000, budget + 1.0), "budget spent");
    assertEquals(0, AllReducePlan.nextWarmupBatch(8, 30, 20_000, budget - 0.5), "not one more op fits");
    assertEquals(0, AllReducePlan.nextWarmupBatch(8, 256, 256, 10.0), "planned count reached");
  }

  /**
   * Two ranks over an in-memory transport, automatic warm-up: each cell's warm-up ends after the
   * same op on both ranks (else the next op would wait for a partner that already timed it) and
   * reaches the planned count when the budget allows.
   */
  @Test
  void ranksOfAGroupAgreeOnTheAutomaticWarmUpAndReachThePlannedCount() throws Exception {
    AllReducePlan plan = new AllReducePlan("a", 2, List.of(64L << 20, 256L << 20), List.of(2),
        AllReducePlan.AUTO_WARMUP, 2, 60_000, 1024, 1);
    List<io.dssync.collective.InMemoryTransport> transports = io.dssync.collective.InMemoryTransport.create(2);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      List<java.util.concurrent.Future<AllReduceWorkerResult>> results = new ArrayList<>();
      for (io.dssync.collective.InMemoryTransport t : transports) {
        results.add(pool.submit(() -> new AllReduceWorker(plan).runCells(t.rank(), "e" + t.rank(), "h", Double.NaN,
            t.stats(), new io.dssync.collective.GroupAllReduce(t, java.time.Duration.ofSeconds(60)),
            new int[] {0, 1})));
      }
      for (java.util.concurrent.Future<AllReduceWorkerResult> f : results) {
        AllReduceWorkerResult r = f.get(5, java.util.concurrent.TimeUnit.MINUTES);
        assertEquals(64, r.warmupOps()[0], "4 GiB of 64 MiB ops, well within the budget");
        assertEquals(16, r.warmupOps()[1], "4 GiB of 256 MiB ops");
        assertEquals(2, r.intervalsMs()[1].length);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
