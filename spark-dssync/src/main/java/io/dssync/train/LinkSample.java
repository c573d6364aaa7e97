package io.dssync.train;

import java.io.Serializable;

/**
 * What one rank's link probe measured: its host and, per peer rank, the time of a small message
 * from that peer and the bandwidth of the large ones, through the training transport. A peer the
 * probe did not meet (a later probe runs only some rounds) reads 0 in every array.
 *
 * @param messageFloats per peer, the size (floats) of the bandwidth messages the bandwidth came from
 * @param rounds how many rounds of {@link io.dssync.schedule.ProbeRounds} the probe ran
 * @param probeMs how long the probe took on this rank (its cost to training)
 */
public record LinkSample(String host, double[] latencyMs, double[] bandwidthMBps, int[] messageFloats, int rounds,
    double probeMs) implements Serializable {}
