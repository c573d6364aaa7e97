package io.dssync.bench.allreduce;

import io.dssync.collective.GroupAllReduce;
import io.dssync.collective.HostOrder;
import io.dssync.collective.TransportStats;
import io.dssync.errors.Errors;
import io.dssync.spark.SparkEnvs;
import io.dssync.transport.PushTransport;
import java.io.Serializable;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.BarrierTaskContext;
import scala.runtime.AbstractFunction1;

/**
 * The body of one rank of the allreduce benchmark stage: the raw TCP probe between the first two
 * ranks in host order, the first g=2 group (while every other rank is idle, so it measures the
 * bare path), every cell of the
 * {@link AllReducePlan} over the real {@link PushTransport} and {@link GroupAllReduce},
 * opened exactly as training's worker opens them, then the raw probe again: on a shared machine
 * the two probes show how much the background load moved during the run.
 */
final class AllReduceWorker
    extends AbstractFunction1<scala.collection.Iterator<Integer>, scala.collection.Iterator<String>>
    implements Serializable {

  private final AllReducePlan plan;

  AllReduceWorker(AllReducePlan plan) {
    this.plan = plan;
  }

  @Override
  public scala.collection.Iterator<String> apply(scala.collection.Iterator<Integer> ignored) {
    BarrierTaskContext ctx = BarrierTaskContext.get();
    int rank = ctx.partitionId();
    Duration timeout = Duration.ofMillis(plan.timeoutMs());
    String host = ownHost(ctx, rank);
    try (PushTransport transport = PushTransport.open(ctx, timeout)) {
      int[] order = HostOrder.byHost(transport.hosts());
      // The raw probe runs between the first two ranks in host order: the pair of the first g=2 group.
      int receiver = order[0];
      int sender = order[1];
      double rawBefore = rawProbe(ctx, rank, host, receiver, sender);
      // One barrier (about 1 s) so no rank starts the all-reduces while the probe still runs.
      ctx.barrier();
      AllReduceWorkerResult cells = runCells(rank, SparkEnvs.executorId(), host, rawBefore,
          transport.stats(), new GroupAllReduce(transport, timeout, plan.algorithm(), transport.hosts()), order);
      // The probe's allGather also waits until every rank finished its cells.
      double rawAfter = rawProbe(ctx, rank, host, receiver, sender);
      AllReduceWorkerResult result = cells.withRawAfter(rawAfter);
      // As text: under spark.kryo.registrationRequired Spark's Kryo knows String[] but not our classes.
      return scala.collection.Iterator$.MODULE$.single(result.encode());
    }
  }

  /**
   * Runs every cell over {@code allReduce}, cutting the ranks into consecutive groups in the order
   * {@code order} ({@link AllReducePlan#byHost}); separate from Spark so the order of calls is testable.
   */
  AllReduceWorkerResult runCells(int rank, String executorId, String host, double raw, TransportStats stats,
      GroupAllReduce allReduce, int[] order) {
    List<AllReducePlan.Cell> cells = plan.cells();
    double[][] intervals = new double[cells.size()][];
    long[] wait = new long[cells.size()];
    long[] transfer = new long[cells.size()];
    long[] cpu = new long[cells.size()];
    int[] warmups = new int[cells.size()];
    float[] vector = new float[0];
    for (AllReducePlan.Cell cell : cells) {
      int[] group = AllReducePlan.groupOf(rank, cell.groupSize(), order);
      if (group == null) {
        continue;
      }
      // A fresh step id per call on every rank, so message ids never collide.
      long step = plan.firstStep(cell);
      if (vector.length != cell.bytes() / Float.BYTES) {
        vector = null; // let the old one go before allocating the next size
        vector = new float[Math.toIntExact(cell.bytes() / Float.BYTES)];
      }
      Arrays.fill(vector, rank + 1);
      int planned = plan.warmupOps(cell.bytes());
      if (plan.warmupBoundedByTime()) {
        step = warmUpWithinBudget(allReduce, group, vector, step, planned, warmups, cell);
      } else {
        for (int w = 0; w < planned; w++) {
          allReduce.average(group, vector, step++, 0);
        }
        warmups[cell.index()] = planned;
      }
      TransportStats.Snapshot before = stats.snapshot();
      long cpuBefore = ProcessCpu.nanos();
      double[] times = new double[plan.iterations()];
      long last = System.nanoTime();
      for (int i = 0; i < plan.iterations(); i++) {
        allReduce.average(group, vector, step++, 0);
        long now = System.nanoTime();
        times[i] = (now - last) / 1e6;
        last = now;
      }
      TransportStats.Snapshot moved = stats.snapshot().minus(before);
      cpu[cell.index()] = ProcessCpu.nanos() - cpuBefore;
      intervals[cell.index()] = times;
      wait[cell.index()] = moved.waitNanos();
      transfer[cell.index()] = moved.transferNanos();
      checkAverage(rank, group, vector, cell);
    }
    return new AllReduceWorkerResult(rank, executorId, host, raw, Double.NaN, intervals, wait, transfer, cpu,
        warmups);
  }

  /**
   * The automatic warm-up of one cell: batches of ops, doubling, and after each the group's mean
   * elapsed time in a one-float all-reduce, so every member stops after the same op
   * ({@link AllReducePlan#nextWarmupBatch}). Returns the next step id; records the ops run.
   */
  private static long warmUpWithinBudget(GroupAllReduce allReduce, int[] group, float[] vector, long step,
      int planned, int[] warmups, AllReducePlan.Cell cell) {
    long start = System.nanoTime();
    float[] elapsedMs = new float[1];
    int done = 0;
    int checks = 0;
    for (int batch = Math.min(AllReducePlan.MIN_WARMUP, planned); batch > 0; ) {
      for (int i = 0; i < batch; i++) {
        allReduce.average(group, vector, step++, 0);
      }
      done += batch;
      if (done >= planned || checks == AllReducePlan.MAX_WARMUP_CHECKS) {
        break; // the cell's step range holds no more checks
      }
      elapsedMs[0] = (System.nanoTime() - start) / 1e6f;
      allReduce.average(group, elapsedMs, step++, 0);
      checks++;
      batch = AllReducePlan.nextWarmupBatch(batch, done, planned, elapsedMs[0]);
    }
    warmups[cell.index()] = done;
    return step;
  }

  /** Every element started as (rank + 1), so after any number of averages it is the group mean. */
  private static void checkAverage(int rank, int[] group, float[] vector, AllReducePlan.Cell cell) {
    double expected = 0;
    for (int r : group) {
      expected += r + 1;
    }
    expected /= group.length;
    for (int i : new int[] {0, vector.length / 2, vector.length - 1}) {
      if (Math.abs(vector[i] - expected) > 1e-4 * expected) {
        throw new IllegalStateException("rank " + rank + ": all-reduce of " + cell.bytes() + " bytes in group "
            + Arrays.toString(group) + " gave " + vector[i] + " at index " + i + ", expected " + expected);
      }
    }
  }

  /** Ranks {@code receiver} and {@code sender} run the raw TCP probe; every rank takes part in the address exchange. */
  private double rawProbe(BarrierTaskContext ctx, int rank, String host, int receiver, int sender) {
    ServerSocket server = rank == receiver ? RawTcpProbe.listen(host) : null;
    String mine = server == null ? "" : host + " " + server.getLocalPort();
    String[] all;
    try {
      all = ctx.allGather(mine);
    } catch (RuntimeException e) {
      closeQuietly(server);
      throw e;
    }
    if (rank == receiver) {
      RawTcpProbe.receive(server, plan.rawBytes(), plan.rawRepeats(), plan.timeoutMs(), rank, sender);
    } else if (rank == sender) {
      String[] address = all[receiver].split(" ");
      return RawTcpProbe.send(address[0], Integer.parseInt(address[1]), plan.rawBytes(), plan.rawRepeats(),
          plan.timeoutMs(), rank, receiver);
    }
    return Double.NaN;
  }

  /**
   * The executor's own address as its peers know it (the host of the barrier task's executor
   * address); SPARK_LOCAL_IP when that is unavailable.
   */
  static String ownHost(BarrierTaskContext ctx, int rank) {
    String address = ctx.getTaskInfos()[rank].address();
    String host = hostOf(address);
    if (host.isEmpty()) {
      host = System.getenv().getOrDefault("SPARK_LOCAL_IP", "");
    }
    if (host.isEmpty()) {
      throw Errors.invalidSetting("executor address", address, "the barrier task's executor address has no host",
          "Set SPARK_LOCAL_IP on the executors to their own address.");
    }
    return host;
  }

  /** {@code host:port} or {@code [v6]:port} to the host. */
  static String hostOf(String address) {
    if (address == null) {
      return "";
    }
    if (address.startsWith("[")) {
      int end = address.indexOf(']');
      return end > 0 ? address.substring(1, end) : "";
    }
    int colon = address.lastIndexOf(':');
    return colon >= 0 ? address.substring(0, colon) : address;
  }

  private static void closeQuietly(ServerSocket server) {
    if (server != null) {
      try {
        server.close();
      } catch (java.io.IOException e) {
        // nothing to do: the stage is failing already
      }
    }
  }
}
