package io.dssync.train;

import java.io.Serializable;

/**
 * What one rank's link probe measured: its host and, per peer rank, the time of a small message
 * from that peer and the bandwidth of the large ones, through the training transport.
 *
 * @param messageFloats per peer, the size (floats) of the bandwidth messages the bandwidth came from
 * @param probeMs how long the probe took on this rank (its cost to training)
 */
public record LinkSample(String host, double[] latencyMs, double[] bandwidthMBps, int[] messageFloats,
    double probeMs) implements Serializable {}
