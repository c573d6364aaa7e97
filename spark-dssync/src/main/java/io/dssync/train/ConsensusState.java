package io.dssync.train;

import java.io.Serializable;

/**
 * The consensus the driver broadcasts at the start of a stage: every worker starts from the same
 * model and optimizer state, so a partition may run on any executor and a failed stage can be
 * rerun from here without double-counting steps.
 */
public record ConsensusState(float[] state, float[] optimizerState, long optimizerSteps) implements Serializable {}
