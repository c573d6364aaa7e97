package io.dssync.transport;

import io.dssync.collective.MessageId;
import io.dssync.errors.ClusterErrors;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import org.apache.spark.BarrierTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The route to other JVMs of the same host: a part is encoded once into a pooled shared-memory buffer
 * ({@link SharedMemoryFolder}) and each reader gets a notice on a Unix domain socket ({@link HostSignals}); the
 * reader's task thread lands the floats from its own mapping of the pages ({@link SharedPartReader}) and answers
 * with an acknowledgement, which reaches the sender as its thread pumps the notices.
 */
final class SharedMemoryRoute implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedMemoryRoute.class);

  private final int rank;
  private final SharedMemoryFolder folder;
  private final HostSignals signals;
  /** Per rank: whether its parts go this way (another JVM of this host that can read our folder). */
  private final boolean[] reaches;

  private SharedMemoryRoute(int rank, SharedMemoryFolder folder, HostSignals signals, int ranks) {
    this.rank = rank;
    this.folder = folder;
    this.signals = signals;
    this.reaches = new boolean[ranks];
  }

  /**
   * The route of this task, or null when it cannot have one: no folder in /dev/shm, or no notice socket in it
   * (logged; same-host peers then exchange over the network).
   */
  static SharedMemoryRoute open(BarrierTaskContext ctx, Inbox inbox, SharedPartReader reader, Duration timeout) {
    SharedMemoryFolder folder = SharedMemoryFolder.create(inbox.id()).orElse(null);
    if (folder == null) {
      return null;
    }
    try {
      HostSignals signals = HostSignals.listen(folder.path(), ctx.partitionId(), ctx.numPartitions(), inbox.id(),
          reader::land, timeout);
      return new SharedMemoryRoute(ctx.partitionId(), folder, signals, ctx.numPartitions());
    } catch (IOException | RuntimeException e) {
      LOG.warn("dssync: no notice socket in {} ({}); same-host peers exchange over the network", folder.path(),
          e.toString());
      folder.close(); // without its notice socket, no peer may use the folder
      return null;
    }
  }

  String folderPath() {
    return folder.path();
  }

  /**
   * Marks which ranks this route reaches: another JVM with this host's address and a folder we can read.
   * Executors in network namespaces of one machine (the throttled testbed) share /dev/shm, but their parts must
   * cross their own links. Symmetric: when this JVM can read a peer's folder, the peer (same user, same /dev/shm)
   * can read ours.
   */
  void knowPeers(PeerAddress[] peers, Inbox[] sameJvm) {
    for (int r = 0; r < peers.length; r++) {
      reaches[r] = sameJvm[r] == null && peers[r].host().equals(peers[rank].host())
          && SharedMemoryFolder.reachable(peers[r].sharedFolder(), peers[r].inboxId());
    }
  }

  boolean reaches(int r) {
    return reaches[r];
  }

  /**
   * The part in a shared-memory buffer for {@code readers} same-host readers; null when /dev/shm cannot take it,
   * and from then on the parts to them go over the network.
   */
  Outgoing.Encoded encode(Outgoing outgoing, float[] data, int offset, int length, int readers) {
    try {
      return outgoing.encodeShared(folder, data, offset, length, readers);
    } catch (IOException e) {
      LOG.warn("dssync: rank {} cannot add {} bytes to its shared-memory folder ({}); same-host peers get its"
          + " parts over the network from now on", rank, FloatCodec.byteSize(length), e.toString());
      Arrays.fill(reaches, false);
      return null;
    }
  }

  /** Tells a same-host reader where the part waits; its answer acknowledges it like an upload's reply. */
  void notify(int readerRank, PeerAddress reader, Outgoing outgoing, MessageId id, Outgoing.Encoded shared,
      int length) {
    SharedPartNotice notice = new SharedPartNotice(new PartHeader(reader.inboxId(), rank, id, length),
        shared.shared.file());
    signals.notice(readerRank, reader.sharedFolder(), reader.inboxId(), notice,
        outgoing.sent(shared, readerRank, id));
  }

  /** {@link HostSignals#pump}: a peer that sent something malformed fails the transport, named. */
  void pump(long maxWaitNanos, long step) {
    try {
      signals.pump(maxWaitNanos);
    } catch (HostSignals.Failure e) {
      throw ClusterErrors.transportFailure(rank, e.peer() < 0 ? rank : e.peer(), step, "exchange notices with",
          e.getCause());
    }
  }

  /** How many parts sent this way the readers have not acknowledged yet. */
  int unacknowledged() {
    return signals.unacknowledged();
  }

  /** Stops the notices; the folder goes too, as no reader needs our files now. */
  @Override
  public void close() {
    signals.close();
    folder.close();
  }
}
