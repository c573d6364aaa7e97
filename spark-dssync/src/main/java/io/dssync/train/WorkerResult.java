package io.dssync.train;

import java.io.Serializable;

/**
 * What one worker reports at the end of a stage. Per-step arrays are indexed by step - firstStep.
 * Each rank carries its 1/N of the consensus (all ranks hold the same values after the stage-end average);
 * {@code links} is set when the stage probed the links (auto schedule), else null;
 * {@code fetchedStart} tells whether the worker fetched the stage's start from the driver's broadcast
 * instead of using its executor's copy ({@link ConsensusCopies}); {@code stageEndMs} is the time of
 * the stage-end average of all ranks, which no step's sync time includes.
 */
public record WorkerResult(
    int rank,
    String executorId,
    float[] loss,
    float[] computeMs,
    float[] syncMs,
    float[] waitMs,
    float[] transferMs,
    long[] bytesSent,
    float stageEndMs,
    double consensusDistance,
    ConsensusPart consensus,
    LinkSample links,
    boolean fetchedStart)
    implements Serializable {
  /** A result without link measurements (the stage did not probe). */
  public WorkerResult(int rank, String executorId, float[] loss, float[] computeMs, float[] syncMs, float[] waitMs,
      float[] transferMs, long[] bytesSent, float stageEndMs, double consensusDistance, ConsensusPart consensus) {
    this(rank, executorId, loss, computeMs, syncMs, waitMs, transferMs, bytesSent, stageEndMs, consensusDistance,
        consensus, null, false);
  }
}
