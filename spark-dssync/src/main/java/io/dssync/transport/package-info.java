/**
 * Moves chunks between the barrier tasks of a stage through Spark's BlockManager; the only
 * package that touches {@code org.apache.spark.storage} and {@code org.apache.spark.network}.
 *
 * <p>{@link io.dssync.transport.BlockManagerTransport#open} inside a barrier task gives a
 * {@link io.dssync.collective.Transport} with zero driver RPCs per step: chunks are stored as local
 * blocks without telling the master, readers are told by a one-way READY message that a block
 * exists and fetch it straight from the sender's block manager, and senders remove each block as
 * soon as all its readers confirmed with FETCHED. {@link io.dssync.transport.BlockIds} is the one
 * factory for block ids. The control messages use Spark's own network library with Spark's
 * authentication bootstraps, so {@code spark.authenticate} and
 * {@code spark.network.crypto.enabled} cover them like the block transfers.
 */
package io.dssync.transport;
