package io.dssync.metrics;

import java.io.Serializable;

/** One global step, averaged over the workers: loss and where the time went. */
public record StepMetrics(
    long step,
    double loss,
    double computeMs,
    double syncMs,
    double waitMs,
    double transferMs,
    double bytesSent)
    implements Serializable {}
