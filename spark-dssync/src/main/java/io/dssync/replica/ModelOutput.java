package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import io.dssync.models.ModelSpec;

/**
 * A model's output for examples {@code from .. from+n-1} of {@code features} / {@code labels}
 * (the arrays the replica was given), for an {@link Objective} to score.
 */
record ModelOutput(NDArray output, float[] features, float[] labels, int from, int n, ModelSpec spec) {}
