package io.dssync.transport;

import io.dssync.collective.MessageId;
import io.dssync.errors.ClusterErrors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.network.buffer.NioManagedBuffer;
import org.apache.spark.network.client.StreamCallbackWithID;
import org.apache.spark.network.client.TransportClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The route to other hosts (and to same-host peers that shared memory does not reach), over this task's
 * {@link DataChannel}, Spark's network library with Spark's authentication and encryption: a part of up to 64 KiB
 * travels whole as one RPC ({@link InlinePart}); a larger one, encoded once into a pooled direct buffer, is
 * uploaded as a stream to each reader, whose network thread decodes the pieces straight into their destination
 * as they come off the socket ({@link #receive}).
 */
final class NetworkRoute {
  private static final Logger LOG = LoggerFactory.getLogger(NetworkRoute.class);
  /** Pause between attempts to reach a peer that refuses connections. */
  private static final long CONNECT_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  /** How long the channel of a rank that gave up waiting keeps answering its own waiters' questions. */
  private static final Duration WAIT_CHAIN_LINGER = Duration.ofSeconds(5);
  /** Closes the channels of ranks that gave up, after {@link #WAIT_CHAIN_LINGER}. */
  private static final ScheduledExecutorService LINGER =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dssync-channel-linger"));

  private final BarrierTaskContext task;
  private final int rank;
  private final DataChannel channel;
  private final PeerAddress[] peers;
  private final TransportClient[] clients;
  /** How long a peer that refuses connections is tried again. */
  private final Duration connectTimeout;

  NetworkRoute(BarrierTaskContext task, DataChannel channel, PeerAddress[] peers, Duration connectTimeout) {
    this.task = task;
    this.rank = task.partitionId();
    this.channel = channel;
    this.peers = peers;
    this.clients = new TransportClient[peers.length];
    this.connectTimeout = connectTimeout;
  }

  /** Sends a small part whole, in one RPC. */
  void sendInline(int reader, MessageId id, float[] data, int offset, int length, Outgoing outgoing) {
    ByteBuffer part = InlinePart.encode(new PartHeader(peers[reader].inboxId(), rank, id, length), data, offset,
        length);
    send(reader, id, client -> client.sendRpc(part, outgoing.sent(null, reader, id)));
  }

  /** Uploads an encoded part as a stream; the reader's reply acknowledges it. */
  void upload(int reader, MessageId id, Outgoing.Encoded encoded, int length, Outgoing outgoing) {
    ByteBuffer header = new PartHeader(peers[reader].inboxId(), rank, id, length).encode();
    send(reader, id, client -> client.uploadStream(new NioManagedBuffer(header),
        new NioManagedBuffer(encoded.buffer.duplicate()), outgoing.sent(encoded, reader, id)));
  }

  /** What {@code peer} waits for, and what that rank waits for in turn, asked over the channels. */
  List<String> waitChain(int peer) {
    return WaitChain.from(channel, peers, rank, peer);
  }

  /** Network thread: where the floats of an incoming part go, piece by piece. */
  static StreamCallbackWithID receive(Inbox inbox, PartHeader header) {
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

  /**
   * Closes the channel; with {@code linger}, a moment from now, as the waiters of a rank that gave up may still
   * ask it what it gave up on ({@link WaitChain}).
   */
  void close(boolean linger) {
    if (linger) {
      LINGER.schedule(this::closeChannel, WAIT_CHAIN_LINGER.toMillis(), TimeUnit.MILLISECONDS);
    } else {
      closeChannel();
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
      throw ClusterErrors.transportFailure(rank, reader, id.step(), "send " + id.describe() + " to", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
    long deadline = System.nanoTime() + connectTimeout.toNanos();
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

  private void closeChannel() {
    try {
      channel.close();
    } catch (RuntimeException e) {
      LOG.warn("Closing the dssync data channel of rank {} failed: {}", rank, e.toString());
    }
  }
}
