package io.dssync.bench.allreduce;

import io.dssync.bench.BenchMode;
import io.dssync.bench.PythonPeer;
import io.dssync.bench.ResultsFolder;
import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.errors.Errors;
import io.dssync.errors.SparkFailures;
import io.dssync.launch.ByteSize;
import io.dssync.launch.CommandFlags;
import io.dssync.launch.SparkSessions;
import io.dssync.train.ClusterSlots;
import io.dssync.train.LocalClusterMaster;
import io.dssync.train.TrainerConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.reflect.ClassTag$;

/**
 * {@code dssync bench allreduce}: time per group all-reduce, algbw and busbw over message sizes and
 * group sizes, next to the raw TCP throughput between two of the same executors, in one run.
 */
public final class AllReduceBench implements BenchMode {
  static final String DEFAULT_MASTER = "local-cluster[4,1,1536]";
  static final List<Long> DEFAULT_SIZES = LongSizes.everyFourTimes(4L << 10, 256L << 20);
  private static final Set<String> FLAGS = Set.of("--master", "--workers", "--sizes", "--groups", "--warmup",
      "--iters", "--raw-bytes", "--raw-repeats", "--network", "--out", "--timeout-ms", "--peer", "--all-reduce");
  private static final Set<String> PEERS = Set.of("none", "gloo");

  @Override
  public String name() {
    return "allreduce";
  }

  @Override
  public String summary() {
    return "group all-reduce time, algbw and busbw by size and g, against raw TCP (nccl-tests style)";
  }

  @Override
  public String usage() {
    return """
        Usage: dssync bench allreduce [flags]
          --master URL        Spark master (default: spark-submit's, else local-cluster[4,1,1536])
          --workers N         barrier tasks, one per executor slot (default: N of local-cluster[N,..], else 4)
          --sizes LIST        message sizes, K/M/G = 1024-based (default 4K,16K,...,256M: every x4)
          --groups LIST       group sizes g in 2..N (default every g from 2 to N); ranks are cut into
                              consecutive groups in the order of their hosts (a rack's hosts
                              together when its addresses are), which run at once; N mod g ranks
                              sit the size out
          --all-reduce NAME   auto (default: ring where a group spans hosts), direct or ring: how
                              groups of three or more exchange (as train's --all-reduce)
          --warmup K          untimed all-reduces per point (default: by size, so that 4 GiB passes
                              first, 2 to 20000: the JIT compiles the per-op path after thousands;
                              at most about 30 s per point, so slow links do not wait for 4 GiB)
          --iters K           timed all-reduces per point; median and min are reported (default 5)
          --raw-bytes SIZE    bytes of each raw TCP transfer between the first two ranks in host
                              order, the pair of the first g=2 group (default 64M)
          --raw-repeats K     raw TCP transfers; the best counts (default 3)
          --network NAME      label of the rows, e.g. loopback or tbf-100mbit (default loopback)
          --out DIR           results folder; writes DIR/allreduce/ (default bench-results)
          --timeout-ms MS     deadline of every wait for a peer (default 120000)
          --peer NAME         none (default) or gloo: after ours, run PyTorch's Gloo all-reduce with
                              the same N, groups, sizes and iterations on 127.0.0.1 (needs Debian's
                              python3-torch, or DSSYNC_PYTHON naming a Python with torch)
        Writes allreduce.csv, busbw-vs-size.png and summary.md; prints busbw/raw at 64M per g
        against the target 0.8; with --peer gloo also gloo.csv, allreduce-vs-gloo.csv and the
        ours/gloo ratios (busbw at 64M, time at 4K g=2).
        """;
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) {
    CommandFlags flags = CommandFlags.parse(args, FLAGS);
    String master = flags.string("--master", SparkSessions.submittedMaster().orElse(DEFAULT_MASTER));
    AllReducePlan plan = plan(flags, master);
    String network = network(flags);
    Path root = flags.path("--out", "bench-results");
    String peer = flags.string("--peer", "none");
    if (!PEERS.contains(peer)) {
      throw Errors.unknownName("--peer", peer, PEERS.toArray());
    }
    // Before any Spark work: a missing PyTorch should not cost a whole measurement first.
    PythonPeer python = peer.equals("gloo") ? PythonPeer.find("gloo") : null;
    err.printf(Locale.ROOT, "[dssync bench allreduce] %d workers on %s, sizes %s, groups %s (%s); %d points,"
            + " each %s then %d timed all-reduces%n", plan.workers(), master,
        plan.sizes().stream().map(ByteSize::label).collect(Collectors.joining(",")), plan.groupSizes(),
        plan.algorithm().label(),
        plan.cells().size(), plan.warmupBoundedByTime()
            ? "warming up for up to " + AllReducePlan.WARMUP_BUDGET_MS / 1000 + " s"
            : "after " + plan.warmup() + " warm-up all-reduces", plan.iterations());
    giveExecutorsTheWorkersMemory(master);
    SparkSession spark = SparkSessions.forMaster(master, TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, plan.workers()).set(TrainerConfig.THREADS_PER_WORKER, 1).build());
    AllReduceRun measured;
    try {
      ClusterSlots.requireStaticAllocation(spark.sparkContext().getConf());
      ClusterSlots.await(spark.sparkContext(), plan.workers(), Duration.ofSeconds(120));
      measured = measure(spark, plan);
    } finally {
      spark.stop(); // the peer gets the cores to itself, as ours had them
    }
    List<AllReduceRow> peerRows = null;
    if (python != null) {
      err.printf(Locale.ROOT, "[dssync bench allreduce] the gloo peer: same plan, %d processes on 127.0.0.1%n",
          plan.workers());
      peerRows = GlooPeer.measure(python, plan, measured.rows().isEmpty() ? Double.NaN
          : measured.rows().get(0).rawTcpMBps());
    }
    List<String> verdicts = new ArrayList<>();
    Path summary = AllReduceReport.write(ResultsFolder.create(root, name(), "dssync bench allreduce "
        + String.join(" ", args)), network, plan, measured, peer, peerRows, verdicts);
    out.println("dssync bench allreduce: wrote " + summary);
    verdicts.forEach(v -> out.println("  " + v));
    return 0;
  }

  /** Runs the benchmark stage on {@code spark}: one row per (size, g) and the raw TCP probes. */
  static AllReduceRun measure(SparkSession spark, AllReducePlan plan) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    List<Integer> ranks = IntStream.range(0, plan.workers()).boxed().toList();
    List<AllReduceWorkerResult> results;
    try {
      String[] collected = (String[]) jsc.parallelize(ranks, plan.workers()).rdd()
          .barrier().mapPartitions(new AllReduceWorker(plan), false, ClassTag$.MODULE$.apply(String.class))
          .collect();
      results = new ArrayList<>();
      for (String text : collected) {
        results.add(AllReduceWorkerResult.decode(text));
      }
    } catch (RuntimeException e) {
      throw SparkFailures.fromTaskFailure(e);
    }
    results.sort(Comparator.comparingInt(AllReduceWorkerResult::rank));
    return AllReduceRun.from(plan, results);
  }

  static AllReducePlan plan(CommandFlags flags, String master) {
    int workers = flags.integer("--workers", defaultWorkers(master), 2, 4096);
    List<Long> sizes = flags.byteSizes("--sizes", DEFAULT_SIZES, 4, 1L << 30);
    for (long s : sizes) {
      if (s % Float.BYTES != 0) {
        throw Errors.invalidSetting("--sizes", ByteSize.label(s), "sizes are whole float32 vectors",
            "Use multiples of 4 bytes, e.g. 4K,64M.");
      }
    }
    List<Integer> groups = flags.integers("--groups",
        IntStream.rangeClosed(2, workers).boxed().toList(), 2, workers);
    long timeoutMs = flags.integer("--timeout-ms", 120_000, 100, Integer.MAX_VALUE);
    List<Long> raw = flags.byteSizes("--raw-bytes", List.of(64L << 20), 1, 1L << 34);
    if (raw.size() != 1) {
      throw Errors.invalidSetting("--raw-bytes", flags.string("--raw-bytes", ""), "it takes one size",
          "Pass e.g. --raw-bytes 64M.");
    }
    String runId = "bench-" + Long.toString(System.currentTimeMillis(), 36);
    int warmup = flags.has("--warmup") ? flags.integer("--warmup", 0, 0, 100_000) : AllReducePlan.AUTO_WARMUP;
    return new AllReducePlan(runId, workers, sizes, groups, warmup, flags.integer("--iters", 5, 1, 100_000),
        timeoutMs, raw.get(0), flags.integer("--raw-repeats", 3, 1, 100),
        AllReduceAlgorithm.parse("--all-reduce", flags.string("--all-reduce", "auto")));
  }

  static String network(CommandFlags flags) {
    return flags.label("--network", "loopback", "tbf-100mbit");
  }

  /** N of {@code local-cluster[N,cores,mb]}; 4 for other masters. */
  static int defaultWorkers(String master) {
    return LocalClusterMaster.parse(master).map(LocalClusterMaster::executors).orElse(4);
  }

  /**
   * A 256 MiB all-reduce holds the vector, its chunks in the block store and the fetched copies:
   * Spark's default 1 GiB executor heap is too small, so on local-cluster the executors get the
   * worker's whole memory unless the user chose a size (system properties become Spark settings).
   */
  private static void giveExecutorsTheWorkersMemory(String master) {
    LocalClusterMaster.parse(master).filter(m -> System.getProperty("spark.executor.memory") == null)
        .ifPresent(m -> System.setProperty("spark.executor.memory", m.memoryMb() + "m"));
  }
}
