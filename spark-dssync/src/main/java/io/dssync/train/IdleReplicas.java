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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * newer fit evicts them, until no stage of their fit took or gave back a replica in this JVM for
 * {@link #IDLE_LIMIT_NANOS} (a notebook that fitted once and went on with other work gets the
 * executors' native memory back), or until the executor ends.
 */
final class IdleReplicas {
  private static final Logger LOG = LoggerFactory.getLogger(IdleReplicas.class);
  /** Fits whose replicas a JVM keeps at once: as many as keep a consensus copy there. */
  static final int FITS = ConsensusCopies.FITS;

  /** What makes replicas interchangeable: the same model, optimizer and compute threads. */
  record Kind(ModelSpec model, OptimizerSpec optimizer, int threads) {}

  /**
   * How long a fit's replicas wait for its next stage. Far longer than the driver's work between two
   * stages (evaluation, checkpoint, slot wait); a fit that pauses longer only builds its models again.
   */
  static final long IDLE_LIMIT_NANOS = TimeUnit.MINUTES.toNanos(5);

  /** One fit's idle replicas in this JVM, and when a stage of it last took or gave back one here. */
  private static final class Fit {
    final Map<Kind, Deque<ModelReplica>> byKind = new HashMap<>();
    long lastUseNanos = System.nanoTime();

    /** Every idle replica of the fit, now no longer held. */
    List<ModelReplica> drain() {
      List<ModelReplica> all = new ArrayList<>();
      byKind.values().forEach(q -> {
        all.addAll(q);
        q.clear();
      });
      return all;
    }
  }

  /** By fit id, eldest use first (guarded by itself). */
  private static final Map<String, Fit> IDLE = new LinkedHashMap<>(4, 0.75f, true);
  private static long created;
  /** Closes replicas idle beyond the limit; started with the first replica kept (guarded by IDLE). */
  private static ScheduledExecutorService sweeper;

  private IdleReplicas() {}

  /**
   * An idle replica of {@code kind} left by an earlier stage of fit {@code fitId}, else a new one from {@code create}.
   */
  static ModelReplica take(String fitId, Kind kind, Supplier<ModelReplica> create) {
    ModelReplica idle;
    List<ModelReplica> evicted = new ArrayList<>();
    synchronized (IDLE) {
      Fit fit = IDLE.computeIfAbsent(fitId, f -> new Fit());
      idle = fit.byKind.computeIfAbsent(kind, k -> new ArrayDeque<>()).poll();
      fit.lastUseNanos = System.nanoTime();
      var fits = IDLE.values().iterator();
      while (IDLE.size() > FITS) {
        evicted.addAll(fits.next().drain());
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
      Fit fit = IDLE.get(fitId);
      if (fit != null) {
        fit.byKind.computeIfAbsent(kind, k -> new ArrayDeque<>()).push(replica);
        fit.lastUseNanos = System.nanoTime();
        if (sweeper == null) {
          sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "dssync-idle-replicas");
            t.setDaemon(true);
            return t;
          });
          sweeper.scheduleWithFixedDelay(() -> closeIdle(System.nanoTime()), 1, 1, TimeUnit.MINUTES);
        }
        return;
      }
    }
    replica.close();
  }

  /** Closes this JVM's idle replicas of fit {@code fitId} (the fit ended). */
  static void closeFit(String fitId) {
    Fit fit;
    synchronized (IDLE) {
      fit = IDLE.remove(fitId);
    }
    if (fit != null) {
      fit.drain().forEach(ModelReplica::close);
    }
  }

  /**
   * Closes the idle replicas of every fit whose stages last took or gave back one more than
   * {@link #IDLE_LIMIT_NANOS} before {@code nowNanos}. The fit stays known, empty: a stage of it
   * still running gives its replica back as usual.
   */
  static void closeIdle(long nowNanos) {
    List<ModelReplica> expired = new ArrayList<>();
    synchronized (IDLE) {
      for (Fit fit : IDLE.values()) {
        if (nowNanos - fit.lastUseNanos > IDLE_LIMIT_NANOS) {
          expired.addAll(fit.drain());
        }
      }
    }
    for (ModelReplica replica : expired) {
      try {
        replica.close();
      } catch (RuntimeException e) {
        // Keep sweeping: a thrown exception would cancel the sweeper's schedule for good.
        LOG.warn("dssync: closing an idle replica failed", e);
      }
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
      Fit fit = IDLE.get(fitId);
      return fit == null ? 0 : fit.byKind.values().stream().mapToInt(Deque::size).sum();
    }
  }
}
