package io.dssync.train;

import java.io.Serializable;

/**
 * What one rank's link probe measured: its host and, per peer rank, the time of a small message
 * from that peer and the bandwidth of a large one, through the training transport.
 *
 * @param probeMs how long the probe took on this rank (its cost to training)
 */
public record LinkSample(String host, double[] latencyMs, double[] bandwidthMBps, double probeMs)
    implements Serializable {}
