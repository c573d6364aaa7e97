package io.dssync.train;

import java.io.Serializable;

/**
 * What one worker reports at the end of a stage. Per-step arrays are indexed by step - firstStep.
 * Only rank 0 carries the consensus (all ranks hold the same values after the stage-end average).
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
    double consensusDistance,
    ConsensusState consensus)
    implements Serializable {}
