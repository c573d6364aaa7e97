package io.dssync.train;

import java.io.Serializable;
import org.apache.spark.broadcast.Broadcast;

/**
 * The consensus a stage starts from: the driver's broadcast, and which stage end produced it
 * (fit, stage attempt, step and fingerprint), so a worker whose executor kept that very consensus
 * ({@link ConsensusCopies}) starts from its own copy and never fetches the broadcast. Broadcasts
 * are fetched lazily, so a stage where every executor holds the copy moves no model bytes from
 * the driver. {@code attemptRunId} is null when no stage produced the consensus (the first
 * stage, a resumed checkpoint): then every worker reads the broadcast.
 */
record StageStart(Broadcast<ConsensusState> broadcast, String fitId, String attemptRunId, long step, long fingerprint)
    implements Serializable {

  /** The consensus to start from, and whether it had to be fetched from the driver. */
  record Resolved(ConsensusState consensus, boolean fetched) {}

  Resolved resolve() {
    if (attemptRunId != null) {
      var copy = ConsensusCopies.find(this);
      if (copy.isPresent()) {
        return new Resolved(copy.get(), false);
      }
    }
    return new Resolved(broadcast.value(), true);
  }
}
