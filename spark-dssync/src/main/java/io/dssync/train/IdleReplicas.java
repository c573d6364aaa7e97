package io.dssync.train;

import io.dssync.models.ModelSpec;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Replicas that wait in their JVM between the stages of one fit. A stage writes its replica's whole
 * state (model, optimizer state, optimizer step count) before its first step, so a replica the
 * stage before left trains exactly like a new one; taking it saves building the model again
 * (about 25 ms for the CNN) and a new replica's slower first step, for every worker at every stage
 * boundary.
 *
 * <p>Only a replica whose stage trained to the end comes back. At most {@link #FITS} fits keep idle
 * replicas in a JVM: taking one for a newer fit closes the eldest fit's. The driver closes its own
 * JVM's at the end of a fit (in local mode its JVM runs the tasks); an executor's stay until a
 * newer fit evicts them or the executor ends.
 */
final class IdleReplicas {
  /** Fits whose replicas a JVM keeps at once: as many as keep a consensus copy there. */
  static final int FITS = ConsensusCopies.FITS;

  /** What makes replicas interchangeable: the same model, optimizer and compute threads. */
  record Kind(ModelSpec model, OptimizerSpec optimizer, int threads) {}

  private static final Map<String, Map<Kind, Deque<ModelReplica>>> IDLE = new LinkedHashMap<>(4, 0.75f, true);
  private static long created;

  private IdleReplicas() {}

  /** An idle replica of {@code kind} left by an earlier stage of fit {@code fitId}, else a new one from {@code create}. */
  static ModelReplica take(String fitId, Kind kind, Supplier<ModelReplica> create) {
    ModelReplica idle;
    List<ModelReplica> evicted = new ArrayList<>();
    synchronized (IDLE) {
      idle = IDLE.computeIfAbsent(fitId, f -> new HashMap<>()).computeIfAbsent(kind, k -> new ArrayDeque<>()).poll();
      var fits = IDLE.entrySet().iterator();
      while (IDLE.size() > FITS) {
        fits.next().getValue().values().forEach(evicted::addAll);
        fits.remove();
      }
      if (idle == null) {
        created++;
      }
    }
    // Outside the lock: closing frees native memory and may take a while.
    evicted.forEach(ModelReplica::close);
    return idle != null ? idle : create.get();
  }

  /** Keeps {@code replica} for the next stage of fit {@code fitId}; closes it when that fit was evicted meanwhile. */
  static void giveBack(String fitId, Kind kind, ModelReplica replica) {
    synchronized (IDLE) {
      Map<Kind, Deque<ModelReplica>> fit = IDLE.get(fitId);
      if (fit != null) {
        fit.computeIfAbsent(kind, k -> new ArrayDeque<>()).push(replica);
        return;
      }
    }
    replica.close();
  }

  /** Closes this JVM's idle replicas of fit {@code fitId} (the fit ended). */
  static void closeFit(String fitId) {
    Map<Kind, Deque<ModelReplica>> fit;
    synchronized (IDLE) {
      fit = IDLE.remove(fitId);
    }
    if (fit != null) {
      fit.values().forEach(q -> q.forEach(ModelReplica::close));
    }
  }

  /** Replicas this JVM built through {@link #take} so far (tests). */
  static long created() {
    synchronized (IDLE) {
      return created;
    }
  }

  /** Idle replicas this JVM holds for fit {@code fitId} (tests). */
  static int idle(String fitId) {
    synchronized (IDLE) {
      Map<Kind, Deque<ModelReplica>> fit = IDLE.get(fitId);
      return fit == null ? 0 : fit.values().stream().mapToInt(Deque::size).sum();
    }
  }
}
