package io.dssync.train;

import io.dssync.collective.CrossRackPrecision;
import io.dssync.collective.GroupAllReduce;
import io.dssync.collective.Transport;
import io.dssync.collective.TransportStats;
import io.dssync.data.LabeledArrays;
import io.dssync.errors.TrainingErrors;
import io.dssync.models.LossKind;
import io.dssync.data.ShardBatcher;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.Replicas;
import io.dssync.schedule.GroupSchedule;
import io.dssync.spark.SparkEnvs;
import io.dssync.transport.PushTransport;
import java.io.Serializable;
import java.time.Duration;
import org.apache.spark.BarrierTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.runtime.AbstractFunction1;

/**
 * The body of one barrier task: rank r trains its replica on its shard for the stage's steps,
 * averaging inside its scheduled group after every step but the last, and averages globally at the
 * end (which subsumes the last step's group average).
 */
final class WorkerTask
    extends AbstractFunction1<scala.collection.Iterator<LabeledArrays>, scala.collection.Iterator<WorkerResult>>
    implements Serializable {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerTask.class);
  /** Rounds of the all-reduce inside one step, so block ids never collide. */
  static final int ROUND_STEP = 0;
  static final int ROUND_FINAL = 1;

  private final StageWork work;
  private final StageStart start;
  /** The fit's {@link WorkerHook}, or null. */
  private final WorkerHook hook;
  private final int attempt;

  /** {@code attempt}: of the stage, from 1; {@code hook} may be null. */
  WorkerTask(StageWork work, StageStart start, WorkerHook hook, int attempt) {
    this.work = work;
    this.start = start;
    this.hook = hook;
    this.attempt = attempt;
  }

  /** See {@link StepMemoryCheck}: at the fit's first stage, before a step allocates (warnings: executor log). */
  private void checkMemory(String[] hosts, int rank) {
    HostMemory.available().ifPresent(bytes -> StepMemoryCheck.requireOnHost(work.model().name(), work.batchSize(),
        work.memoryCheck(), hosts, rank, bytes).ifPresent(LOG::warn));
  }

  @Override
  public scala.collection.Iterator<WorkerResult> apply(scala.collection.Iterator<LabeledArrays> shards) {
    BarrierTaskContext ctx = BarrierTaskContext.get();
    LabeledArrays shard = shards.next();
    Duration timeout = Duration.ofMillis(work.syncTimeoutMs());
    // Threads = the CPUs Spark reserved for this task (spark.task.cpus): never oversubscribe.
    IdleReplicas.Kind kind = new IdleReplicas.Kind(work.model(), work.optimizer(), ctx.cpus());
    ModelReplica replica = IdleReplicas.take(start.fitId(), kind,
        () -> Replicas.create(kind.model(), kind.optimizer(), kind.threads()));
    boolean trainedToTheEnd = false;
    try (PushTransport transport = PushTransport.open(ctx, timeout)) {
      String[] hosts = transport.hosts();
      if (work.memoryCheck() != null) {
        checkMemory(hosts, transport.rank());
      }
      GroupSchedule schedule = work.schedule().forHosts(hosts);
      LinkSample links = work.probeLinks()
          ? LinkProbe.run(transport, hosts.length, hosts[transport.rank()], work.firstStep(), work.probeBudgetMs(),
              work.probeStartFloats() == null ? null : work.probeStartFloats()[transport.rank()],
              work.probeScope().rounds(hosts), timeout) : null;
      FirstPlan firstPlan = work.firstPlanSpec() == null ? null : new FirstPlan(work.firstPlanSpec(), hosts, links,
          work.stepsPerStage(), work.allReduce(), work.crossRack());
      StageStart.Resolved from = start.resolve();
      GroupAllReduce allReduce = new GroupAllReduce(transport, timeout, work.allReduce(), hosts);
      WorkerResult trained = train(ctx.partitionId(), SparkEnvs.executorId(),
          shard, from.consensus(), replica, transport, allReduce, schedule, firstPlan,
          work.crossRack() == CrossRackPrecision.FP16 ? work.racks().rackOfRank(hosts) : null);
      trainedToTheEnd = true;
      WorkerResult result = with(trained, links, from.fetched());
      return scala.collection.Iterator$.MODULE$.single(result);
    } finally {
      // The next stage writes the replica's whole state before it trains, so it may reuse this one.
      if (trainedToTheEnd) {
        IdleReplicas.giveBack(start.fitId(), kind, replica);
      } else {
        replica.close();
      }
    }
  }

  /** The stage's work for one rank; separate from Spark so tests can run it over any transport. */
  WorkerResult train(int rank, String executorId, LabeledArrays shard, ConsensusState s, ModelReplica replica,
      Transport transport, GroupAllReduce allReduce) {
    // Without hosts only a plan that is already a schedule can run (tests over in-memory transports).
    if (!(work.schedule() instanceof GroupSchedule schedule)) {
      throw new IllegalStateException("the stage's schedule needs the ranks' hosts: " + work.schedule());
    }
    return train(rank, executorId, shard, s, replica, transport, allReduce, schedule, null, null);
  }

  /**
   * As above with the stage's schedule already placed on the ranks' hosts; with a {@code firstPlan}
   * the ranks agree on auto's first plan after the first step's compute and run it from that step on.
   * {@code layoutRacks} is each rank's rack from {@code --racks} (or its host), for schedules that
   * have no racks of their own; null: one rack (only halves across racks need it).
   */
  WorkerResult train(int rank, String executorId, LabeledArrays shard, ConsensusState s, ModelReplica replica,
      Transport transport, GroupAllReduce allReduce, GroupSchedule schedule, FirstPlan firstPlan,
      int[] layoutRacks) {
    replica.writeState(s.state());
    int innerOptimizer = replica.optimizerStateSize();
    // The consensus carries the outer optimizer's buffer after the replicas' optimizer state.
    float[] replicaOptimizer = s.optimizerState().length == innerOptimizer ? s.optimizerState()
        : java.util.Arrays.copyOf(s.optimizerState(), innerOptimizer);
    replica.writeOptimizerState(replicaOptimizer);
    replica.setOptimizerSteps(s.optimizerSteps());
    OuterOptimizer outer = work.outer();
    int trainable = replica.trainableSize();
    // Where the outer step starts from: the consensus at the last average of all ranks, or in groups this
    // replica's state after its last group average (null: plain averages).
    float[] anchor = outer.plainAverage() ? null : s.state().clone();
    float[] outerBuffer = anchor == null ? new float[0]
        : java.util.Arrays.copyOfRange(s.optimizerState(), innerOptimizer, innerOptimizer + trainable);
    ShardBatcher batcher = new ShardBatcher(shard, work.batchSize(), work.seed(), rank);
    float[] features = new float[work.batchSize() * shard.featureSize()];
    float[] labels = new float[work.batchSize() * shard.labelWidth()];
    float[] state = new float[replica.stateSize()];
    int n = work.steps();
    float[] loss = new float[n];
    float[] computeMs = new float[n];
    float[] syncMs = new float[n];
    float[] waitMs = new float[n];
    float[] transferMs = new float[n];
    long[] bytes = new long[n];
    TransportStats stats = transport.stats();
    // Every rank starts the stage from the same consensus, so it is a reference all of them hold alike.
    float[] halfReference = work.crossRack() == CrossRackPrecision.FP16 ? s.state() : null;
    int[] rackOfRank = racks(schedule, layoutRacks);
    for (int i = 0; i < n; i++) {
      long step = work.firstStep() + i;
      long t0 = System.nanoTime();
      batcher.fill(step, features, labels);
      loss[i] = replica.trainStep(features, labels, work.batchSize(), work.learningRate().at(step));
      if (!Float.isFinite(loss[i])) {
        // Failing the task fails the barrier stage; the driver keeps the last consensus model.
        throw work.model().lossKind() == LossKind.CUSTOM ? TrainingErrors.customLossNotFinite(step, loss[i])
            : TrainingErrors.diverged(step, loss[i]);
      }
      if (hook != null) {
        hook.beforeAveraging(rank, step, attempt);
      }
      long t1 = System.nanoTime();
      computeMs[i] = (t1 - t0) / 1e6f;
      TransportStats.Snapshot before = stats.snapshot();
      if (i == 0 && firstPlan != null) {
        schedule = firstPlan.agree(transport, computeMs[i], (long) replica.stateSize() * Float.BYTES, step,
            Duration.ofMillis(work.syncTimeoutMs())).schedulePlan().forHosts(firstPlan.hosts());
        rackOfRank = racks(schedule, layoutRacks);
      }
      int[] group = schedule.groupOf(rank, step);
      // The stage-end average of all ranks subsumes the last step's group average: every member of
      // a group would hold its group's mean, and the mean over all ranks of those is the mean over
      // all ranks. Skipping it saves a sync per stage (under topology, a cross-rack one).
      if (group.length > 1 && i < n - 1) {
        replica.readState(state);
        average(allReduce, group, schedule.twoLevelRacksAt(step), state, step, ROUND_STEP, rackOfRank,
            halfReference);
        if (anchor != null && (outer.inGroups() || group.length == schedule.workers())) {
          outer.step(anchor, state, outerBuffer, trainable);
          System.arraycopy(state, 0, anchor, 0, state.length);
        }
        replica.writeState(state);
      }
      long t2 = System.nanoTime();
      TransportStats.Snapshot moved = stats.snapshot().minus(before);
      syncMs[i] = (t2 - t1) / 1e6f;
      waitMs[i] = moved.waitNanos() / 1e6f;
      transferMs[i] = moved.transferNanos() / 1e6f;
      bytes[i] = moved.bytesSent();
    }
    long stageEnd = System.nanoTime();
    int[] everyone = java.util.stream.IntStream.range(0, schedule.workers()).toArray();
    long lastStep = work.endStep() - 1;
    replica.readState(state);
    float[] optimizer = new float[replica.optimizerStateSize()];
    replica.readOptimizerState(optimizer);
    // Model and optimizer state in one all-reduce: one set of rounds, so each message's latency is
    // paid once per stage instead of twice (measured ~0.45 s per stage end on 100 Mbit/s uplinks).
    // In groups each replica's outer buffer is its own: the stage end averages it with the rest.
    float[] both = outer.inGroups() && anchor != null ? concat(concat(state, optimizer), outerBuffer)
        : concat(state, optimizer);
    // Under halves across racks the reference is the stage's start, model and optimizer state alike.
    float[] bothReference = halfReference == null ? null
        : both.length == state.length + optimizer.length ? concat(s.state(), replicaOptimizer)
        : concat(s.state(), s.optimizerState());
    average(allReduce, everyone, schedule.racksForGlobalAverage(), both, lastStep, ROUND_FINAL, rackOfRank,
        bothReference);
    if (anchor != null && !outer.inGroups()) {
      outer.step(anchor, both, outerBuffer, trainable);
    }
    // At averages of all ranks every rank computed the same buffer from the same floats: it joins the consensus
    // unaveraged; in groups it was averaged with the rest.
    float[] consensus = outerBuffer.length == 0 || outer.inGroups() ? both : concat(both, outerBuffer);
    float stageEndMs = (System.nanoTime() - stageEnd) / 1e6f;
    double distance = distance(state, both);
    // In local mode the tasks run in the driver's JVM, where the broadcast is read without a fetch.
    if (start != null && !SparkEnvs.isDriver(executorId)) {
      ConsensusCopies.keep(start.fitId(), work.runId(), work.endStep(),
          () -> ConsensusState.split(consensus, state.length, replica.optimizerSteps()));
    }
    // Every rank holds the same floats; each ships its 1/N of them to the driver.
    return new WorkerResult(rank, executorId, loss, computeMs, syncMs, waitMs, transferMs, bytes, stageEndMs,
        distance, ConsensusPart.of(rank, schedule.workers(), consensus, state.length, replica.optimizerSteps()));
  }

  /**
   * Averages {@code group}: in two levels over {@code twoLevel} when the schedule gave them (across
   * racks in halves of the change since {@code halfReference} when that is not null), else in one
   * (in those halves when the group's members sit in more than one of the racks {@code rackOfRank}).
   */
  private static void average(GroupAllReduce allReduce, int[] group, int[][] twoLevel, float[] vector, long step,
      int round, int[] rackOfRank, float[] halfReference) {
    if (twoLevel != null) {
      allReduce.averageInRacks(twoLevel, vector, step, round, halfReference);
    } else {
      boolean spansRacks = rackOfRank != null && GroupSchedule.spansRacks(group, r -> rackOfRank[r]);
      allReduce.average(group, vector, step, round, spansRacks ? halfReference : null);
    }
  }

  /** The schedule's racks when it has them, else the layout's (null: one rack). */
  private static int[] racks(GroupSchedule schedule, int[] layoutRacks) {
    return schedule.rackOfRank() != null ? schedule.rackOfRank() : layoutRacks;
  }

  private static float[] concat(float[] a, float[] b) {
    float[] both = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static WorkerResult with(WorkerResult r, LinkSample links, boolean fetchedStart) {
    return new WorkerResult(r.rank(), r.executorId(), r.loss(), r.computeMs(), r.syncMs(), r.waitMs(), r.transferMs(),
        r.bytesSent(), r.stageEndMs(), r.consensusDistance(), r.consensus(), links, fetchedStart);
  }

  /**
   * Euclidean distance between this replica {@code a} and the consensus, the first {@code a.length}
   * floats of {@code b}.
   */
  static double distance(float[] a, float[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      double d = a[i] - b[i];
      sum += d * d;
    }
    return Math.sqrt(sum);
  }
}
