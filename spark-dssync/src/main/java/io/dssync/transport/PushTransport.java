package io.dssync.transport;

import io.dssync.collective.Landing;
import io.dssync.collective.MessageId;
import io.dssync.collective.Transport;
import io.dssync.collective.TransportStats;
import io.dssync.errors.ClusterErrors;
import io.dssync.errors.DataErrors;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.Errors;
import io.dssync.spark.BarrierRendezvous;
import io.dssync.spark.SparkEnvs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.SparkConf;
import org.apache.spark.network.buffer.NioManagedBuffer;
import org.apache.spark.network.client.StreamCallbackWithID;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.util.TaskCompletionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Transport} between the barrier tasks of one stage that pushes every part to its
 * readers: one network trip per part, no polling, and the driver never involved.
 *
 * <ul>
 *   <li>Same JVM (every rank of {@code local[N]}, and tasks sharing an executor): {@code publish}
 *       copies the floats straight into the reader's {@link Inbox}; nothing is serialized.
 *   <li>Other JVMs of the same host (executors sharing a machine, {@code local-cluster}):
 *       {@code publish} encodes the part once into a pooled shared-memory buffer
 *       ({@link SharedMemoryFolder}) and writes the reader a notice on a Unix domain socket
 *       ({@link HostSignals}); the reader's task thread, blocked on that socket, lands the floats
 *       straight from its mapping of the same pages ({@link SharedPartReader}) and answers with an
 *       acknowledgement. Off with {@value #SHARED_MEMORY_KEY}=false, and whenever Spark encrypts
 *       its traffic or local files: then every part stays on the authenticated, encrypted channel.
 *   <li>Other hosts: a part of up to 64 KiB travels whole as one RPC ({@link InlinePart}); a larger
 *       one is encoded once into a pooled direct buffer and uploaded as a stream to each reader's
 *       {@link DataChannel} (Spark's network library, with Spark's authentication and
 *       encryption); the reader's network thread decodes the pieces straight into a pooled float
 *       buffer (or the reader's announced array) as they come off the socket and wakes the task.
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
  private static final Logger LOG = LoggerFactory.getLogger(PushTransport.class);
  /** Inboxes of the open transports of this JVM, by inbox id: how same-JVM senders find readers. */
  private static final ConcurrentHashMap<String, Inbox> INBOXES = new ConcurrentHashMap<>();
  /** Spark setting: whether executors of one host exchange parts through shared memory (default true). */
  public static final String SHARED_MEMORY_KEY = "spark.dssync.sharedMemory.enabled";
  /** Spark network settings of the transport's own channel ({@code spark.dssync.io.serverThreads}, ...). */
  public static final String CHANNEL_KEYS = "spark." + DataChannel.MODULE + ".io.";
  /** Pause between attempts to reach a peer that refuses connections. */
  private static final long CONNECT_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  /** How long the channel of a rank that gave up waiting keeps answering its own waiters' questions. */
  private static final Duration WAIT_CHAIN_LINGER = Duration.ofSeconds(5);
  /** Closes the channels of ranks that gave up, after {@link #WAIT_CHAIN_LINGER}. */
  private static final ScheduledExecutorService LINGER =
      Executors.newSingleThreadScheduledExecutor(daemon("dssync-channel-linger"));

  private final BarrierTaskContext task;
  private final int rank;
  private final Duration closeTimeout;
  private final Inbox inbox;
  private final DataChannel channel;
  private final PeerAddress[] peers;
  /** The inbox of each rank that lives in this JVM; null for ranks in other JVMs. */
  private final Inbox[] sameJvm;
  /** This task's shared-memory buffers, or null when it exchanges over the network only. */
  private final SharedMemoryFolder sharedFolder;
  private final SharedPartReader sharedReader;
  /** Notices to and from same-host peers (with {@link #sharedFolder}), or null. */
  private final HostSignals signals;
  /** Ranks in other JVMs of this host whose parts go through shared memory. */
  private final boolean[] sameHost;
  private final TransportClient[] clients;
  private final Outgoing outgoing = new Outgoing();
  private final TransportStats stats = new TransportStats();
  private boolean failed;
  private boolean closed;
  /** The step of the last part published, for errors at {@link #close}. */
  private long lastStep;

  private PushTransport(BarrierTaskContext task, Duration closeTimeout, Inbox inbox, DataChannel channel,
      PeerAddress[] peers, SharedMemoryFolder sharedFolder, SharedPartReader sharedReader, HostSignals signals) {
    this.task = task;
    this.rank = task.partitionId();
    this.closeTimeout = closeTimeout;
    this.inbox = inbox;
    this.channel = channel;
    this.peers = peers;
    this.sharedFolder = sharedFolder;
    this.sharedReader = sharedReader;
    this.signals = signals;
    this.sameJvm = new Inbox[peers.length];
    this.sameHost = new boolean[peers.length];
    for (int r = 0; r < peers.length; r++) {
      sameJvm[r] = INBOXES.get(peers[r].inboxId());
      // Same address as well as a readable folder: executors in network namespaces of one machine
      // (the throttled testbed) share /dev/shm, but their parts must cross their own links.
      // Symmetric: when this JVM can read the peer's folder, the peer (same user, same /dev/shm) can read ours.
      sameHost[r] = sameJvm[r] == null && sharedFolder != null && peers[r].host().equals(peers[rank].host())
          && SharedMemoryFolder.reachable(peers[r].sharedFolder(), peers[r].inboxId());
    }
    this.clients = new TransportClient[peers.length];
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
    DataChannel channel = DataChannel.start(SparkEnvs.conf(), SparkEnvs.security(), host, new DataChannel.Receiver() {
      @Override
      public StreamCallbackWithID open(PartHeader header) {
        return receive(inbox, header);
      }

      @Override
      public void landInline(PartHeader header, ByteBuffer floats) {
        inbox.checkAddressedTo(header);
        inbox.fillWhole(header.sender(), header.id(), header.floats(), floats);
      }

      @Override
      public PeerWait peerWait(String inboxId) {
        inbox.checkAddressedTo(inboxId);
        return inbox.peerWait();
      }
    });
    INBOXES.put(inbox.id(), inbox);
    SharedMemoryFolder folder = sharedMemory ? SharedMemoryFolder.create(inbox.id()).orElse(null) : null;
    HostSignals signals = folder == null ? null : listen(folder, ctx, inbox, sharedReader, timeout);
    if (signals == null && folder != null) {
      folder.close(); // without its notice socket, no peer may use the folder
      folder = null;
    }
    try {
      PeerAddress mine = new PeerAddress(channel.host(), channel.port(), inbox.id(),
          folder == null ? PeerAddress.NO_FOLDER : folder.path());
      String[] all = BarrierRendezvous.allGather(ctx, mine.encode());
      PeerAddress[] peers = new PeerAddress[all.length];
      for (int r = 0; r < all.length; r++) {
        peers[r] = PeerAddress.decode(r, all[r]);
      }
      sharedReader.knowFolders(Arrays.stream(peers).map(PeerAddress::sharedFolder).toArray(String[]::new));
      PushTransport t = new PushTransport(ctx, timeout, inbox, channel, peers, folder, sharedReader, signals);
      // Backstop for paths that never reach close() (task killed mid-step): nothing outlives the task.
      ctx.addTaskCompletionListener((TaskCompletionListener) done -> t.release());
      return t;
    } catch (RuntimeException e) {
      INBOXES.remove(inbox.id());
      inbox.close();
      sharedReader.close();
      channel.close();
      if (signals != null) {
        signals.close();
      }
      if (folder != null) {
        folder.close();
      }
      throw e;
    }
  }

  /** The notice socket in {@code folder}, or null (logged) when this host cannot have one. */
  private static HostSignals listen(SharedMemoryFolder folder, BarrierTaskContext ctx, Inbox inbox,
      SharedPartReader reader, Duration timeout) {
    try {
      return HostSignals.listen(folder.path(), ctx.partitionId(), ctx.numPartitions(), inbox.id(), reader::land,
          timeout);
    } catch (IOException | RuntimeException e) {
      LOG.warn("dssync: no notice socket in {} ({}); same-host peers exchange over the network", folder.path(),
          e.toString());
      return null;
    }
  }

  /**
   * Whether same-host executors may exchange through shared memory: unless switched off, and never
   * when Spark encrypts its network traffic or its local files (then parts stay on the encrypted
   * channel, as the user asked).
   */
  static boolean sharedMemoryAllowed(SparkConf conf) {
    return conf.getBoolean(SHARED_MEMORY_KEY, true)
        && !conf.getBoolean("spark.network.crypto.enabled", false)
        && !conf.getBoolean("spark.io.encryption.enabled", false)
        && !conf.getBoolean("spark.ssl.rpc.enabled", false);
  }

  /** Transports open in this JVM right now (for tests: none may outlive its stage). */
  public static int openInThisJvm() {
    return INBOXES.size();
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

  /** Where rank {@code r} can be reached (package-private: for tests). */
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
    return sameHost[r];
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
      viaShared += sameHost[r] && length > 0 ? 1 : 0;
    }
    long start = System.nanoTime();
    lastStep = id.step();
    if (signals != null) {
      pumpSignals(0, id.step()); // acknowledgements that came meanwhile free their buffers for this part
    }
    Outgoing.Encoded shared = viaShared == 0 ? null : encodeShared(data, offset, length, viaShared);
    boolean inline = InlinePart.fits(length);
    int streamed = 0;
    for (int r : readers) {
      streamed += sameJvm[r] == null && !(shared != null && sameHost[r]) && !inline ? 1 : 0;
    }
    Outgoing.Encoded encoded = streamed == 0 ? null : outgoing.encode(data, offset, length, streamed);
    for (int r : readers) {
      if (sameJvm[r] != null) {
        copyInto(sameJvm[r], r, id, data, offset, length);
      } else if (shared != null && sameHost[r]) {
        notifyShared(r, id, shared, length);
      } else if (inline) {
        ByteBuffer part = InlinePart.encode(new PartHeader(peers[r].inboxId(), rank, id, length), data, offset, length);
        send(r, id, client -> client.sendRpc(part, outgoing.sent(null, r, id)));
      } else {
        upload(r, id, encoded, length);
      }
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
        if (signals != null) {
          // Same-host readers' acknowledgements come only as this thread reads them.
          TaskWaits.pumpUntil(wait -> pumpSignals(wait, lastStep), () -> signals.unacknowledged() == 0, deadline,
              task);
        }
        Outgoing.Failure missing = outgoing.awaitAcknowledged(deadline, task);
        if (missing != null && missing.cause() != null) {
          error = sendFailed(missing);
        } else if (missing != null) {
          inbox.awaitingAcknowledgement(missing.reader(), missing.id(), start, true);
          error = ClusterErrors.peerTimeout(rank, missing.reader(), missing.id().step(),
              "the acknowledgement of " + missing.id().describe(), closeTimeout.toMillis(),
              WaitChain.from(channel, peers, rank, missing.reader()));
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

  /** Network thread: where the floats of an incoming part go, piece by piece. */
  private static StreamCallbackWithID receive(Inbox inbox, PartHeader header) {
    inbox.checkAddressedTo(header);
    Inbox.Parcel parcel = inbox.startFilling(header.sender(), header.id(), header.floats());
    FloatCodec.Decoder decoder =
        new FloatCodec.Decoder(parcel.floats, parcel.offset, header.floats(), parcel.landing);
    String streamId = "dssync-" + header.sender() + "-" + header.id().token();
    return new StreamCallbackWithID() {
      @Override
      public String getID() {
        return streamId;
      }

      @Override
      public void onData(String id, ByteBuffer piece) {
        decoder.accept(piece);
      }

      @Override
      public void onComplete(String id) throws IOException {
        if (!decoder.complete()) {
          IOException short_ = new IOException("stream " + id + " ended after " + decoder.filled() + " of "
              + header.floats() + " floats");
          inbox.fail(parcel, short_);
          throw short_;
        }
        inbox.finish(parcel);
      }

      @Override
      public void onFailure(String id, Throwable cause) {
        inbox.fail(parcel, cause);
      }
    };
  }

  private void copyInto(Inbox reader, int readerRank, MessageId id, float[] data, int offset, int length) {
    Inbox.Parcel parcel;
    try {
      parcel = reader.startFilling(rank, id, length);
    } catch (IllegalStateException e) {
      failed = true;
      throw ClusterErrors.transportFailure(rank, readerRank, id.step(), "hand " + id.describe() + " to", e);
    }
    parcel.landing.apply(data, offset, parcel.floats, parcel.offset, length);
    reader.finish(parcel);
  }

  /**
   * The part in a shared-memory buffer for {@code readers} same-host readers; null when /dev/shm
   * cannot take it, and from then on this transport sends to them over the network.
   */
  private Outgoing.Encoded encodeShared(float[] data, int offset, int length, int readers) {
    try {
      return outgoing.encodeShared(sharedFolder, data, offset, length, readers);
    } catch (IOException e) {
      LOG.warn("dssync: rank {} cannot add {} bytes to its shared-memory folder ({}); same-host peers get its"
          + " parts over the network from now on", rank, FloatCodec.byteSize(length), e.toString());
      Arrays.fill(sameHost, false);
      return null;
    }
  }

  private void upload(int reader, MessageId id, Outgoing.Encoded encoded, int length) {
    ByteBuffer header = new PartHeader(peers[reader].inboxId(), rank, id, length).encode();
    send(reader, id, client -> client.uploadStream(new NioManagedBuffer(header),
        new NioManagedBuffer(encoded.buffer.duplicate()), outgoing.sent(encoded, reader, id)));
  }

  /** Tells a same-host reader where the part waits; its answer acknowledges it like an upload's reply. */
  private void notifyShared(int reader, MessageId id, Outgoing.Encoded shared, int length) {
    SharedPartNotice notice = new SharedPartNotice(new PartHeader(peers[reader].inboxId(), rank, id, length),
        shared.shared.file());
    signals.notice(reader, peers[reader].sharedFolder(), peers[reader].inboxId(), notice,
        outgoing.sent(shared, reader, id));
  }

  /** {@link HostSignals#pump} for this task: a peer that sent something malformed fails the transport, named. */
  private void pumpSignals(long maxWaitNanos, long step) {
    try {
      signals.pump(maxWaitNanos);
    } catch (HostSignals.Failure e) {
      failed = true;
      throw ClusterErrors.transportFailure(rank, e.peer() < 0 ? rank : e.peer(), step, "exchange notices with",
          e.getCause());
    }
  }

  /** One way of handing a part to a peer's connection. */
  private interface Sending {
    void to(TransportClient client);
  }

  private void send(int reader, MessageId id, Sending sending) {
    try {
      sending.to(client(reader));
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw ClusterErrors.transportFailure(rank, reader, id.step(), "send " + id.describe() + " to", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failed = true;
      task.killTaskIfInterrupted();
      throw ClusterErrors.transportFailure(rank, reader, id.step(), "send " + id.describe() + " to", e);
    }
  }

  /**
   * The connection to {@code peer}. A peer whose endpoint refuses connections has usually ended
   * its task (it failed), and Spark is about to kill this barrier task too: retrying until then
   * (or until the deadline) lets the stage fail with the peer's own error rather than with this
   * consequence of it.
   */
  private TransportClient client(int peer) throws IOException, InterruptedException {
    TransportClient client = clients[peer];
    if (client != null && client.isActive()) {
      return client;
    }
    long deadline = System.nanoTime() + closeTimeout.toNanos();
    while (true) {
      try {
        client = channel.connect(peers[peer].host(), peers[peer].port());
        clients[peer] = client;
        return client;
      } catch (IOException e) {
        if (System.nanoTime() + CONNECT_RETRY_NANOS > deadline) {
          throw e;
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(CONNECT_RETRY_NANOS));
        task.killTaskIfInterrupted();
      }
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
    Inbox.Parcel parcel = sameHost[sender]
        ? inbox.take(sender, id, start + timeout.toNanos(), task, wait -> pumpSignals(wait, id.step()))
        : inbox.take(sender, id, start + timeout.toNanos(), task);
    long arrived = System.nanoTime();
    if (parcel == null) {
      failed = true;
      throw ClusterErrors.peerTimeout(rank, sender, id.step(), id.describe(), timeout.toMillis(),
          WaitChain.from(channel, peers, rank, sender));
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
    INBOXES.remove(inbox.id());
    inbox.close();
    if (signals != null) {
      signals.close();
    }
    sharedReader.close();
    if (inbox.gaveUpOnce()) {
      // Its waiters may ask what it gave up on a moment from now (WaitChain): answer them a while.
      LINGER.schedule(this::closeChannel, WAIT_CHAIN_LINGER.toMillis(), TimeUnit.MILLISECONDS);
    } else {
      closeChannel();
    }
    if (sharedFolder != null) {
      sharedFolder.close(); // no reader needs our files now: every part was acknowledged, or the stage failed
    }
  }

  static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  private void closeChannel() {
    try {
      channel.close();
    } catch (RuntimeException e) {
      LOG.warn("Closing the dssync data channel of rank {} failed: {}", rank, e.toString());
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
