package io.dssync.train;

import java.lang.ref.SoftReference;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The stage-end consensus each executor JVM keeps for the next stage. After the stage-end global
 * average every rank holds the consensus the driver receives from rank 0, bit for bit; starting
 * the next stage from this copy saves every executor a fetch of the driver's broadcast (model and
 * optimizer state through the driver's link at every stage boundary).
 *
 * <p>One copy per fit (its latest stage end), for at most {@link #FITS} fits at a time, each held
 * softly so the garbage collector may take it under memory pressure: a missing copy only means
 * the worker reads the broadcast, as on the first stage or on an executor that joined later.
 */
final class ConsensusCopies {
  /** Fits whose copies a JVM keeps at once (two fits can share executors, e.g. a parallel CrossValidator). */
  static final int FITS = 2;

  private record Copy(String attemptRunId, long step, long fingerprint, SoftReference<ConsensusState> consensus) {}

  private static final Map<String, Copy> COPIES = new LinkedHashMap<>(4, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Copy> eldest) {
      return size() > FITS;
    }
  };

  private ConsensusCopies() {}

  /**
   * Keeps {@code consensus}, reached after step {@code step} - 1 by stage attempt {@code attemptRunId}
   * of fit {@code fitId}, replacing the fit's earlier copy. Ranks of one attempt in the same JVM hold
   * the same values, so the first to arrive keeps its copy and the others keep nothing.
   */
  static void keep(String fitId, String attemptRunId, long step, Supplier<ConsensusState> consensus) {
    synchronized (COPIES) {
      Copy held = COPIES.get(fitId);
      if (held != null && held.attemptRunId().equals(attemptRunId) && held.step() == step
          && held.consensus().get() != null) {
        return;
      }
    }
    // Outside the lock: the copy and the digest read every float once (about a millisecond per million).
    ConsensusState kept = consensus.get();
    Copy copy = new Copy(attemptRunId, step, kept.fingerprint(), new SoftReference<>(kept));
    synchronized (COPIES) {
      COPIES.put(fitId, copy);
    }
  }

  /** This JVM's copy of the consensus {@code start} names, if it holds that one and still has it. */
  static Optional<ConsensusState> find(StageStart start) {
    synchronized (COPIES) {
      Copy held = COPIES.get(start.fitId());
      if (held == null || !held.attemptRunId().equals(start.attemptRunId()) || held.step() != start.step()
          || held.fingerprint() != start.fingerprint()) {
        return Optional.empty();
      }
      return Optional.ofNullable(held.consensus().get());
    }
  }

  /** Forgets every copy (tests). */
  static void clear() {
    synchronized (COPIES) {
      COPIES.clear();
    }
  }
}
