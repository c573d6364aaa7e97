package io.dssync.transport;

import io.dssync.collective.MessageId;
import io.dssync.collective.Transport;
import io.dssync.collective.TransportStats;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.Errors;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.TaskCompletionListener;
import org.apache.spark.util.io.ChunkedByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * A {@link Transport} between the barrier tasks of one stage that keeps the driver off the
 * per-step path (zero driver RPCs per step).
 *
 * <ul>
 *   <li>Data: {@code publish} stores the chunk in this executor's BlockManager without telling the
 *       master; a reader fetches it straight from the sender's block manager (address known from
 *       stage start), so no location lookup reaches the driver.
 *   <li>Readiness: a fetch of a missing block makes the serving block manager report to the
 *       driver, so readers never fetch blind. The sender sends READY to each reader over a small
 *       {@link SignalChannel}; the reader fetches only after it, then sends FETCHED back; the
 *       sender removes the block (again without the master) once every reader has fetched it.
 *   <li>Stage start: one {@code allGather} exchanges every rank's addresses (about 1 s, once per
 *       stage). {@link #close()} waits until all of this task's blocks were fetched and removes
 *       leftovers, so no block outlives the stage.
 * </ul>
 *
 * <p>Used from the task thread only; not thread-safe. Errors: {@code Errors.peerTimeout} when a
 * chunk or a FETCHED confirmation does not arrive by the deadline, {@code
 * Errors.transportFailure} when a peer is unreachable or a fetch fails.
 */
public final class BlockManagerTransport implements Transport {
  private static final Logger LOG = LoggerFactory.getLogger(BlockManagerTransport.class);
  private static final ClassTag<Object> BYTES_TAG = ClassTag$.MODULE$.Any();

  private final BarrierTaskContext task;
  private final String runId;
  private final int stage;
  private final int rank;
  private final Duration closeTimeout;
  private final BlockManager blockManager;
  private final PeerAddress[] peers;
  private final TransportClient[] signalClients;
  private final SignalChannel signals;
  private final ReadyBoard ready;
  private final Outbox outbox;
  private final TransportStats stats;
  private boolean failed;
  private boolean closed;

  private BlockManagerTransport(BarrierTaskContext task, String runId, int stage, Duration closeTimeout,
      BlockManager blockManager, PeerAddress[] peers, SignalChannel signals, ReadyBoard ready,
      Outbox outbox, TransportStats stats) {
    this.task = task;
    this.runId = runId;
    this.stage = stage;
    this.rank = task.partitionId();
    this.closeTimeout = closeTimeout;
    this.blockManager = blockManager;
    this.peers = peers;
    this.signalClients = new TransportClient[peers.length];
    this.signals = signals;
    this.ready = ready;
    this.outbox = outbox;
    this.stats = stats;
  }

  /**
   * Opens the transport for this barrier task; every task of the stage must call it (it contains
   * one {@code allGather}). {@code timeout} bounds {@link #close()}'s wait for readers.
   */
  public static BlockManagerTransport open(BarrierTaskContext ctx, String runId, int stage, Duration timeout) {
    BlockIds.checkRunId(runId);
    if (stage < 0) {
      throw Errors.invalidSetting("stage", stage, "it must be >= 0", "Number stages from 0.");
    }
    SparkEnv env = SparkEnv.get();
    BlockManager bm = env.blockManager();
    BlockManagerId me = bm.blockManagerId();
    TransportStats stats = new TransportStats();
    ReadyBoard ready = new ReadyBoard();
    Outbox outbox = new Outbox(stats.bytesSent);
    // Bind where the block manager binds: the executor's own address, reachable by its peers.
    SignalChannel signals = SignalChannel.start(env, me.host(), s -> {
      switch (s.kind()) {
        case READY -> ready.markReady(s.blockName());
        case FETCHED -> outbox.acknowledge(s.blockName(), s.rank());
      }
    });
    try {
      PeerAddress mine = new PeerAddress(me.executorId(), me.host(), me.port(), signals.host(), signals.port());
      String[] all = ctx.allGather(mine.encode());
      PeerAddress[] peers = new PeerAddress[all.length];
      for (int r = 0; r < all.length; r++) {
        peers[r] = PeerAddress.decode(r, all[r]);
      }
      BlockManagerTransport t =
          new BlockManagerTransport(ctx, runId, stage, timeout, bm, peers, signals, ready, outbox, stats);
      // Backstop for paths that never reach close() (task killed mid-step): blocks must not outlive the task.
      ctx.addTaskCompletionListener((TaskCompletionListener) done -> t.release());
      return t;
    } catch (RuntimeException e) {
      signals.close();
      throw e;
    }
  }

  @Override
  public int rank() {
    return rank;
  }

  /** Number of ranks in the stage. */
  public int size() {
    return peers.length;
  }

  /** The executor host of every rank (as its block manager reports it), for topology-aware schedules. */
  public String[] hosts() {
    String[] hosts = new String[peers.length];
    for (int r = 0; r < peers.length; r++) {
      hosts[r] = peers[r].blockHost();
    }
    return hosts;
  }

  /** Where rank {@code r} can be reached (package-private: for tests). */
  PeerAddress peer(int r) {
    checkRank(r);
    return peers[r];
  }

  /** Stores the chunk locally (not reported to the driver) and tells each reader it is ready. */
  @Override
  public void publish(MessageId id, float[] data, int offset, int length, int[] readers) {
    checkOpen();
    removeReleased();
    if (readers.length == 0) {
      return; // nobody will read it: storing it would only leave garbage
    }
    for (int r : readers) {
      checkRank(r);
    }
    BlockId block = BlockIds.chunk(runId, stage, rank, id);
    int size = FloatCodec.byteSize(length);
    outbox.register(block, id.step(), size, readers);
    boolean stored = blockManager.putBytes(block, new ChunkedByteBuffer(FloatCodec.encode(data, offset, length)),
        StorageLevel.MEMORY_ONLY_SER(), false, BYTES_TAG);
    if (!stored) {
      outbox.forget(block);
      failed = true;
      throw Errors.blockStoreRefused(rank, id.step(), block.name(), size);
    }
    ByteBuffer readyMessage = new Signal(Signal.Kind.READY, rank, block.name()).encode();
    for (int r : readers) {
      send(r, id.step(), readyMessage.duplicate());
    }
  }

  /** Waits for the sender's READY, fetches the block from its block manager, confirms with FETCHED. */
  @Override
  public void fetch(int sender, MessageId id, float[] dst, int offset, int length, Duration timeout) {
    checkOpen();
    checkRank(sender);
    String name = BlockIds.chunk(runId, stage, sender, id).name();
    long start = System.nanoTime();
    boolean isReady = ready.await(name, start + timeout.toNanos(), task);
    long readyAt = System.nanoTime();
    stats.waitNanos.addAndGet(readyAt - start);
    if (!isReady) {
      failed = true;
      throw Errors.peerTimeout(rank, sender, id.step(), "chunk " + id.token() + " (block " + name + ")",
          timeout.toMillis());
    }
    PeerAddress from = peers[sender];
    ManagedBuffer buffer;
    try {
      buffer = blockManager.blockTransferService()
          .fetchBlockSync(from.blockHost(), from.blockPort(), from.executorId(), name, null);
    } catch (Exception e) { // Scala code may throw checked exceptions it does not declare
      failed = true;
      throw Errors.transportFailure(rank, sender, id.step(), "fetch block " + name + " from", e);
    }
    try {
      ByteBuffer bytes = buffer.nioByteBuffer();
      if (bytes.remaining() != FloatCodec.byteSize(length)) {
        failed = true;
        throw Errors.lengthMismatch("block " + name + " from rank " + sender + " (floats)", length,
            bytes.remaining() / Float.BYTES);
      }
      FloatCodec.decode(bytes, dst, offset, length);
    } catch (java.io.IOException e) {
      failed = true;
      throw Errors.transportFailure(rank, sender, id.step(), "read block " + name + " from", e);
    } finally {
      buffer.release();
    }
    stats.transferNanos.addAndGet(System.nanoTime() - readyAt);
    stats.bytesReceived.addAndGet(FloatCodec.byteSize(length));
    send(sender, id.step(), new Signal(Signal.Kind.FETCHED, rank, name).encode());
  }

  @Override
  public TransportStats stats() {
    return stats;
  }

  /**
   * Waits (up to the open timeout) until every block this task published was fetched by all its
   * readers, then removes what is left and stops the signal server. After a failed fetch or
   * publish it does not wait: the stage is failing anyway.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    DsSyncException error = null;
    try {
      if (!failed) {
        long deadline = System.nanoTime() + closeTimeout.toNanos();
        Outbox.Missing missing = outbox.awaitAllFetched(deadline, task);
        if (missing != null) {
          error = Errors.peerTimeout(rank, missing.reader(), missing.step(),
              "confirmation that it fetched block " + missing.blockName(), closeTimeout.toMillis());
        }
      }
    } finally {
      release();
    }
    if (error != null) {
      throw error;
    }
  }

  /** Removes every block this task still stores and stops the signal server; idempotent. */
  private void release() {
    if (closed) {
      return;
    }
    closed = true;
    List<BlockId> leftovers = outbox.takeAll();
    for (BlockId block : leftovers) {
      removeQuietly(block);
    }
    ready.clear();
    try {
      signals.close();
    } catch (RuntimeException e) {
      LOG.warn("Closing the dssync signal server of rank {} failed: {}", rank, e.toString());
    }
  }

  /** Removes blocks that all readers have fetched; locally only, the master never knew them. */
  private void removeReleased() {
    for (BlockId block : outbox.drainReleased()) {
      blockManager.removeBlock(block, false);
    }
  }

  private void removeQuietly(BlockId block) {
    try {
      blockManager.removeBlock(block, false);
    } catch (RuntimeException e) {
      LOG.warn("Removing block {} failed: {}", block.name(), e.toString());
    }
  }

  private void send(int peer, long step, ByteBuffer message) {
    try {
      TransportClient client = signalClients[peer];
      if (client == null || !client.isActive()) {
        PeerAddress p = peers[peer];
        client = signals.connect(p.signalHost(), p.signalPort());
        signalClients[peer] = client;
      }
      client.send(message);
    } catch (java.io.IOException | RuntimeException e) {
      failed = true;
      throw Errors.transportFailure(rank, peer, step, "signal", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failed = true;
      task.killTaskIfInterrupted();
      throw Errors.transportFailure(rank, peer, step, "signal", e);
    }
  }

  private void checkRank(int r) {
    if (r < 0 || r >= peers.length) {
      throw new IllegalArgumentException("rank " + r + " is not in 0.." + (peers.length - 1));
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the transport of rank " + rank + " is closed");
    }
  }
}
