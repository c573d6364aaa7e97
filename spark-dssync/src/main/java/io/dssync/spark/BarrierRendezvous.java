package io.dssync.spark;

import io.dssync.errors.ClusterErrors;
import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.RequestMethod$;
import org.apache.spark.RequestToSync;
import org.apache.spark.SparkEnv;
import org.apache.spark.rpc.RpcEndpointRef;
import org.apache.spark.rpc.RpcTimeout;
import org.apache.spark.util.RpcUtils;
import org.apache.spark.util.ThreadUtils;
import scala.concurrent.duration.FiniteDuration;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;
import scala.util.Try;

/**
 * The all-gather that opens a stage's transport: what {@link BarrierTaskContext#allGather} does,
 * but woken the moment the driver's barrier coordinator answers.
 *
 * <p>Why: Spark 4.1's allGather polls its reply in 1 s sleeps, so every task but the last to arrive
 * would lose up to a second per stage, 100 ms per step at 10 steps per stage. This sends the
 * same request to the same coordinator and blocks on the reply itself. The coordinator still
 * enforces spark.barrier.sync.timeout and names the tasks that did not arrive.
 *
 * <p>The coordinator counts syncs per stage attempt (the barrier epoch); this sends the task
 * context's current epoch and advances it on success, as Spark does, so {@code ctx.barrier()} and
 * {@code ctx.allGather} still work after it. On a Spark without these internals it falls back to
 * ctx.allGather.
 */
public final class BarrierRendezvous {
  /** How often a waiting task checks whether Spark killed it (the reply itself wakes it at once). */
  private static final long KILL_CHECK_MS = 1_000;

  private BarrierRendezvous() {}

  public static String[] allGather(BarrierTaskContext ctx, String message) {
    Field epochField;
    CompletableFuture<String[]> reply;
    int epoch;
    try {
      epochField = BarrierTaskContext.class.getDeclaredField("barrierEpoch");
      epochField.setAccessible(true);
      epoch = epochField.getInt(ctx);
      reply = ask(ctx, epoch, message);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return ctx.allGather(message);
    }
    while (true) {
      try {
        String[] all = reply.get(KILL_CHECK_MS, TimeUnit.MILLISECONDS);
        epochField.setInt(ctx, epoch + 1);
        return all;
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("barrierEpoch was made accessible above", e);
      } catch (TimeoutException e) {
        killIfInterrupted(ctx, reply);
      } catch (InterruptedException e) {
        reply.cancel(true);
        Thread.currentThread().interrupt();
        ctx.killTaskIfInterrupted();
        throw ClusterErrors.rendezvousFailure(ctx.partitionId(), e);
      } catch (ExecutionException e) {
        throw ClusterErrors.rendezvousFailure(ctx.partitionId(), e.getCause());
      }
    }
  }

  private static CompletableFuture<String[]> ask(BarrierTaskContext ctx, int epoch, String message) {
    SparkEnv env = SparkEnv.get();
    RpcEndpointRef coordinator = RpcUtils.makeDriverRef("barrierSync", env.conf(), env.rpcEnv());
    RequestToSync request = new RequestToSync(ctx.numPartitions(), ctx.stageId(), ctx.stageAttemptNumber(),
        ctx.taskAttemptId(), epoch, ctx.partitionId(), message, RequestMethod$.MODULE$.ALL_GATHER());
    // As Spark's own call: no RPC deadline of its own; the coordinator times the barrier out.
    RpcTimeout untimed = new RpcTimeout(FiniteDuration.apply(365, TimeUnit.DAYS), "barrierTimeout");
    scala.concurrent.Future<String[]> future = coordinator.ask(request, untimed,
        ClassTag$.MODULE$.apply(String[].class));
    CompletableFuture<String[]> reply = new CompletableFuture<>();
    // Completed on the thread that completes Spark's future (the RPC reply), as Scala 2.13's converter does;
    // written against what Scala 2.12 and 2.13 share.
    future.onComplete(new AbstractFunction1<Try<String[]>, Boolean>() {
      @Override
      public Boolean apply(Try<String[]> result) {
        return result.isSuccess() ? reply.complete(result.get()) : reply.completeExceptionally(result.failed().get());
      }
    }, ThreadUtils.sameThread());
    return reply;
  }

  private static void killIfInterrupted(BarrierTaskContext ctx, CompletableFuture<String[]> reply) {
    if (ctx.isInterrupted()) {
      reply.cancel(true);
      ctx.killTaskIfInterrupted();
    }
  }
}
