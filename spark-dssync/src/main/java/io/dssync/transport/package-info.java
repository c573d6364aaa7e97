/**
 * Moves chunks between the barrier tasks of a stage, over Spark's network library
 * ({@code org.apache.spark.network}); the rest of Spark's internals it reaches through
 * {@code io.dssync.spark}.
 *
 * <p>{@link io.dssync.transport.PushTransport#open} inside a barrier task gives a
 * {@link io.dssync.collective.Transport} that pushes every part to its readers: by memory copy to
 * readers in the same JVM, through shared memory to other executors of the same host (only a
 * notice on the wire), and as one RPC (small parts) or one stream upload over Spark's own network
 * library (with Spark's authentication bootstraps, so {@code spark.authenticate} and
 * {@code spark.network.crypto.enabled} apply) to the others. One network trip per part, no
 * polling, zero driver RPCs per step.
 */
package io.dssync.transport;
