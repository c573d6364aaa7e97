package io.dssync.transport;

import io.dssync.collective.Landing;
import io.dssync.collective.MessageId;
import io.dssync.collective.Transport;
import io.dssync.collective.TransportStats;
import io.dssync.config.ProcessSettings;
import io.dssync.errors.ClusterErrors;
import io.dssync.errors.DataErrors;
import io.dssync.errors.DsSyncException;
import io.dssync.spark.BarrierRendezvous;
import io.dssync.spark.SparkEnvs;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.SparkConf;
import org.apache.spark.util.TaskCompletionListener;

/**
 * A {@link Transport} between the barrier tasks of one stage that pushes every part to its
 * readers: one network trip per part, no polling, and the driver never involved.
 *
 * <ul>
 *   <li>Same JVM (every rank of {@code local[N]}, and tasks sharing an executor): {@code publish}
 *       copies the floats straight into the reader's {@link Inbox}; nothing is serialized ({@link SameJvmRoute}).
 *   <li>Other JVMs of the same host (executors sharing a machine, {@code local-cluster}):
 *       {@code publish} encodes the part once into a pooled shared-memory buffer
 *       ({@link SharedMemoryFolder}) and writes the reader a notice on a Unix domain socket
 *       ({@link HostSignals}); the reader's task thread, blocked on that socket, lands the floats
 *       straight from its mapping of the same pages ({@link SharedPartReader}) and answers with an
 *       acknowledgement. Off with {@code spark.dssync.sharedMemory.enabled=false}
 *       ({@link ProcessSettings#SHARED_MEMORY}), and whenever Spark encrypts its traffic or local files: then
 *       every part stays on the authenticated, encrypted channel ({@link SharedMemoryRoute}).
 *   <li>Other hosts: a part of up to 64 KiB travels whole as one RPC ({@link InlinePart}); a larger
 *       one is encoded once into a pooled direct buffer and uploaded as a stream to each reader's
 *       {@link DataChannel} (Spark's network library, with Spark's authentication and
 *       encryption); the reader's network thread decodes the pieces straight into a pooled float
 *       buffer (or the reader's announced array) as they come off the socket and wakes the task
 *       ({@link NetworkRoute}).
 *   <li>{@code fetch} / {@code fetchAdd} wait for the part, then copy or add it into the caller's
 *       array and recycle the buffer.
 *   <li>Stage start: one {@code allGather} exchanges every rank's address and inbox id (about 1 s,
 *       once per stage). {@link #close()} waits until every reader acknowledged every part, so
 *       nothing of this task is in flight when the stage ends.
 * </ul>
 *
 * <p>Nothing is stored in the BlockManager, so no block of a step ever reaches the driver's block
 * tracker. Used from the task thread only. Errors: {@code ClusterErrors.peerTimeout} when a part or an
 * acknowledgement does not arrive by the deadline (for a part, with what the silent peer was
 * waiting for in turn, asked over its channel: {@link PeerWait}), {@code ClusterErrors.transportFailure}
 * when a peer is unreachable or a transfer fails.
 */
public final class PushTransport implements Transport {
  private final BarrierTaskContext task;
  private final int rank;
  private final Duration closeTimeout;
  private final Inbox inbox;
  private final PeerAddress[] peers;
  /** The inbox of each rank that lives in this JVM; null for ranks in other JVMs. */
  private final Inbox[] sameJvm;
  /** The route to other JVMs of this host, or null when this task exchanges over the network only. */
  private final SharedMemoryRoute shared;
  private final SharedPartReader sharedReader;
  private final NetworkRoute network;
  private final Outgoing outgoing = new Outgoing();
  private final TransportStats stats = new TransportStats();
  private boolean failed;
  private boolean closed;
  /** The step of the last part published, for errors at {@link #close}. */
  private long lastStep;

  private PushTransport(BarrierTaskContext task, Duration closeTimeout, Inbox inbox, DataChannel channel,
      PeerAddress[] peers, SharedMemoryRoute shared, SharedPartReader sharedReader) {
    this.task = task;
    this.rank = task.partitionId();
    this.closeTimeout = closeTimeout;
    this.inbox = inbox;
    this.peers = peers;
    this.shared = shared;
    this.sharedReader = sharedReader;
    this.sameJvm = new Inbox[peers.length];
    for (int r = 0; r < peers.length; r++) {
      sameJvm[r] = SameJvmRoute.find(peers[r].inboxId());
    }
    if (shared != null) {
      shared.knowPeers(peers, sameJvm);
    }
    this.network = new NetworkRoute(task, channel, peers, closeTimeout);
  }

  /**
   * Opens the transport for this barrier task; every task of the stage must call it (it contains
   * one {@code allGather}). {@code timeout} bounds {@link #close()}'s wait for acknowledgements.
   */
  public static PushTransport open(BarrierTaskContext ctx, Duration timeout) {
    return open(ctx, timeout, sharedMemoryAllowed(SparkEnvs.conf()));
  }

  /**
   * Like {@link #open(BarrierTaskContext, Duration)}, choosing whether same-host peers may use
   * shared memory (tests run both paths on one host).
   */
  static PushTransport open(BarrierTaskContext ctx, Duration timeout, boolean sharedMemory) {
    Inbox inbox = new Inbox(UUID.randomUUID().toString(), ctx.partitionId());
    SharedPartReader sharedReader = new SharedPartReader(inbox);
    // Bind where the block manager binds: the executor's own address, reachable by its peers.
    String host = SparkEnvs.blockManagerHost();
    DataChannel channel = DataChannel.start(SparkEnvs.conf(), SparkEnvs.security(), host, new InboxReceiver(inbox));
    SameJvmRoute.register(inbox);
    SharedMemoryRoute shared = sharedMemory ? SharedMemoryRoute.open(ctx, inbox, sharedReader, timeout) : null;
    try {
      PeerAddress mine = new PeerAddress(channel.host(), channel.port(), inbox.id(),
          shared == null ? PeerAddress.NO_FOLDER : shared.folderPath());
      String[] all = BarrierRendezvous.allGather(ctx, mine.encode());
      PeerAddress[] peers = new PeerAddress[all.length];
      for (int r = 0; r < all.length; r++) {
        peers[r] = PeerAddress.decode(r, all[r]);
      }
      sharedReader.knowFolders(Arrays.stream(peers).map(PeerAddress::sharedFolder).toArray(String[]::new));
      PushTransport t = new PushTransport(ctx, timeout, inbox, channel, peers, shared, sharedReader);
      // Backstop for paths that never reach close() (task killed mid-step): nothing outlives the task.
      ctx.addTaskCompletionListener((TaskCompletionListener) done -> t.release());
      return t;
    } catch (RuntimeException e) {
      SameJvmRoute.unregister(inbox);
      inbox.close();
      sharedReader.close();
      channel.close();
      if (shared != null) {
        shared.close();
      }
      throw e;
    }
  }

  /**
   * Whether same-host executors may exchange through shared memory: unless switched off, and never
   * when Spark encrypts its network traffic or its local files (then parts stay on the encrypted
   * channel, as the user asked).
   */
  static boolean sharedMemoryAllowed(SparkConf conf) {
    return ProcessSettings.SHARED_MEMORY.parse(conf.get(ProcessSettings.SHARED_MEMORY.key(), null)).orElse(true)
        && !conf.getBoolean("spark.network.crypto.enabled", false)
        && !conf.getBoolean("spark.io.encryption.enabled", false)
        && !conf.getBoolean("spark.ssl.rpc.enabled", false);
  }

  @Override
  public int rank() {
    return rank;
  }

  /** Number of ranks in the stage. */
  public int size() {
    return peers.length;
  }

  /** The executor host of every rank (where its data channel listens), for topology-aware schedules. */
  public String[] hosts() {
    String[] hosts = new String[peers.length];
    for (int r = 0; r < peers.length; r++) {
      hosts[r] = peers[r].host();
    }
    return hosts;
  }

  /** Where rank {@code r} can be reached. */
  PeerAddress peer(int r) {
    checkRank(r);
    return peers[r];
  }

  /** Whether rank {@code r}'s parts move by memory copy (same JVM) rather than over the network. */
  public boolean sameJvm(int r) {
    checkRank(r);
    return sameJvm[r] != null;
  }

  /** Whether parts to rank {@code r} (another JVM of this host) go through shared memory. */
  public boolean sharedMemory(int r) {
    checkRank(r);
    return throughShared(r);
  }

  /** {@link #sharedMemory} for a rank already checked: the per-part paths ask it for every reader. */
  private boolean throughShared(int r) {
    return shared != null && shared.reaches(r);
  }

  @Override
  public void publish(MessageId id, float[] data, int offset, int length, int[] readers) {
    checkOpen();
    Objects.checkFromIndexSize(offset, length, data.length);
    Outgoing.Failure failure = outgoing.failure();
    if (failure != null) {
      throw sendFailed(failure);
    }
    int viaShared = 0;
    for (int r : readers) {
      checkRank(r);
      viaShared += throughShared(r) && length > 0 ? 1 : 0;
    }
    long start = System.nanoTime();
    lastStep = id.step();
    try {
      if (shared != null) {
        shared.pump(0, id.step()); // acknowledgements that came meanwhile free their buffers for this part
      }
      Outgoing.Encoded inShared = viaShared == 0 ? null : shared.encode(outgoing, data, offset, length, viaShared);
      boolean inline = InlinePart.fits(length);
      int streamed = 0;
      for (int r : readers) {
        streamed += sameJvm[r] == null && !(inShared != null && throughShared(r)) && !inline ? 1 : 0;
      }
      Outgoing.Encoded encoded = streamed == 0 ? null : outgoing.encode(data, offset, length, streamed);
      for (int r : readers) {
        if (sameJvm[r] != null) {
          SameJvmRoute.hand(sameJvm[r], rank, r, id, data, offset, length);
        } else if (inShared != null && throughShared(r)) {
          shared.notify(r, peers[r], outgoing, id, inShared, length);
        } else if (inline) {
          network.sendInline(r, id, data, offset, length, outgoing);
        } else {
          network.upload(r, id, encoded, length, outgoing);
        }
      }
    } catch (DsSyncException e) {
      failed = true;
      throw e;
    }
    stats.transferNanos.addAndGet(System.nanoTime() - start);
    stats.bytesSent.addAndGet((long) FloatCodec.byteSize(length) * readers.length);
  }

  /** The part will land in {@code dst} as it arrives: no pooled buffer, no second copy. */
  @Override
  public void expect(int sender, MessageId id, float[] dst, int offset, int length, Landing landing) {
    checkOpen();
    checkRank(sender);
    Objects.checkFromIndexSize(offset, length, dst.length);
    inbox.expect(sender, id, dst, offset, length, landing);
  }

  @Override
  public TransportStats stats() {
    return stats;
  }

  /**
   * Waits (up to the open timeout) until every reader acknowledged every part this task sent,
   * then stops receiving. After a failed step it does not wait: the stage is failing anyway.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    DsSyncException error = null;
    try {
      if (!failed) {
        long start = System.nanoTime();
        long deadline = start + closeTimeout.toNanos();
        // For peers that ask what holds this rank up: most likely the part sent longest ago.
        Outgoing.Unacknowledged oldest = outgoing.oldestUnacknowledged();
        if (oldest != null) {
          inbox.awaitingAcknowledgement(oldest.reader(), oldest.id(), start, false);
        }
        if (shared != null) {
          // Same-host readers' acknowledgements come only as this thread reads them.
          TaskWaits.pumpUntil(wait -> pumpShared(wait, lastStep), () -> shared.unacknowledged() == 0, deadline,
              task);
        }
        Outgoing.Failure missing = outgoing.awaitAcknowledged(deadline, task);
        if (missing != null && missing.cause() != null) {
          error = sendFailed(missing);
        } else if (missing != null) {
          inbox.awaitingAcknowledgement(missing.reader(), missing.id(), start, true);
          error = ClusterErrors.peerTimeout(rank, missing.reader(), missing.id().step(),
              "the acknowledgement of " + missing.id().describe(), closeTimeout.toMillis(),
              network.waitChain(missing.reader()));
        } else if (oldest != null) {
          inbox.notWaiting(); // the acknowledgement wait it reported is over
        }
      }
    } finally {
      release();
    }
    if (error != null) {
      throw error;
    }
  }

  /**
   * Waits for a part and lands it in {@code dst} (unless it landed there already as it arrived);
   * splits the blocked time into wait and transfer.
   */
  @Override
  public void fetch(int sender, MessageId id, float[] dst, int offset, int length, Landing landing,
      Duration timeout) {
    checkOpen();
    checkRank(sender);
    Objects.checkFromIndexSize(offset, length, dst.length);
    long start = System.nanoTime();
    Inbox.Parcel parcel = throughShared(sender)
        ? inbox.take(sender, id, start + timeout.toNanos(), task, wait -> pumpShared(wait, id.step()))
        : inbox.take(sender, id, start + timeout.toNanos(), task);
    long arrived = System.nanoTime();
    if (parcel == null) {
      failed = true;
      throw ClusterErrors.peerTimeout(rank, sender, id.step(), id.describe(), timeout.toMillis(),
          network.waitChain(sender));
    }
    if (parcel.failure != null) {
      failed = true;
      throw ClusterErrors.transportFailure(rank, sender, id.step(), "receive " + id.describe() + " from",
          parcel.failure);
    }
    if (parcel.length != length) {
      failed = true;
      throw DataErrors.lengthMismatch(id.describe() + " from rank " + sender + " (floats)", length, parcel.length);
    }
    if (parcel.pooled) {
      landing.apply(parcel.floats, 0, dst, offset, length);
      inbox.recycle(parcel);
    } else if (parcel.floats != dst || parcel.offset != offset || parcel.landing != landing) {
      failed = true;
      throw new IllegalStateException("rank " + rank + " took " + id.describe() + " from rank " + sender
          + " other than it announced with expect()");
    }
    long end = System.nanoTime();
    // Of the time blocked here, the part's bytes were on their way in from its first to its last byte.
    long moving = Math.max(0, Math.min(arrived, parcel.doneNanos) - Math.max(start, parcel.startedNanos));
    stats.waitNanos.addAndGet(arrived - start - moving);
    stats.transferNanos.addAndGet(moving + end - arrived);
    stats.bytesReceived.addAndGet(FloatCodec.byteSize(length));
  }

  /** {@link SharedMemoryRoute#pump}; a failure there fails this transport. */
  private void pumpShared(long maxWaitNanos, long step) {
    try {
      shared.pump(maxWaitNanos, step);
    } catch (DsSyncException e) {
      failed = true;
      throw e;
    }
  }

  private DsSyncException sendFailed(Outgoing.Failure f) {
    failed = true;
    return ClusterErrors.transportFailure(rank, f.reader(), f.id().step(), "send " + f.id().describe() + " to",
        f.cause());
  }

  /** Stops receiving and closes the channel; idempotent. */
  private void release() {
    if (closed) {
      return;
    }
    closed = true;
    SameJvmRoute.unregister(inbox);
    inbox.close();
    if (shared != null) {
      shared.close(); // no reader needs our files now: every part was acknowledged, or the stage failed
    }
    sharedReader.close();
    network.close(inbox.gaveUpOnce());
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
