package io.dssync.transport;

import io.dssync.collective.MessageId;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import org.apache.spark.network.client.RpcResponseCallback;

/**
 * The notices and acknowledgements of the shared-memory path, between the task threads of
 * executors on one host, over Unix domain sockets. Why not Spark's network library: an
 * RPC reaches the reader's task through three threads woken in turn (the sender's event loop, the
 * reader's event loop, then the parked task), and on a loaded 2-core machine each wake-up costs
 * about as much as Gloo's whole exchange. Here the reader's task thread blocks on the socket itself
 * and the kernel wakes it when the notice is written.
 *
 * <p>Each task listens on {@value #SOCKET} in its shared-memory folder, which only its owner can
 * enter (the part files beside it have the same protection, so the socket adds no new reader). A
 * sender connects to a reader on its first part for it, introduces itself with its rank and the
 * reader's inbox id (a random id the stage's address exchange gave it), then writes one notice per
 * part. The reader's task thread reads notices while it waits for a part of that host
 * ({@link #pump}), lands each and answers it with an acknowledgement, which the sender's task thread
 * reads when it publishes or closes; then the sender may reuse the buffer. Frames: an int length, a
 * kind byte, the body. Used from the task thread only.
 */
final class HostSignals implements AutoCloseable {
  /** The socket's file name in the task's shared-memory folder. */
  static final String SOCKET = "signals";
  private static final byte HELLO = 4;
  private static final byte NOTICE = SharedPartNotice.KIND;
  private static final byte ACK = 5;
  /** Larger than any frame: a notice is a header and a file path. */
  private static final int READ_BUFFER = 64 * 1024;

  /** Lands a notice's part (throws when the notice is not acceptable). */
  interface Lander {
    void land(SharedPartNotice notice);
  }

  private final int rank;
  private final String inboxId;
  private final Lander lander;
  private final Duration writeTimeout;
  private final ServerSocketChannel server;
  private final Selector selector;
  /** The connection to each reader this task sent to; null before the first part. */
  private final Connection[] toReader;
  /** The connection from each sender that introduced itself; null before its hello. */
  private final Connection[] fromSender;
  private boolean closed;

  private HostSignals(int rank, int ranks, String inboxId, Lander lander, Duration writeTimeout,
      ServerSocketChannel server, Selector selector) {
    this.rank = rank;
    this.inboxId = inboxId;
    this.lander = lander;
    this.writeTimeout = writeTimeout;
    this.server = server;
    this.selector = selector;
    this.toReader = new Connection[ranks];
    this.fromSender = new Connection[ranks];
  }

  /** Where the task whose shared-memory folder is {@code folder} listens. */
  static Path socketIn(String folder) {
    return Path.of(folder, SOCKET);
  }

  /** Listens in {@code folder} for the senders of a stage of {@code ranks} tasks. */
  static HostSignals listen(String folder, int rank, int ranks, String inboxId, Lander lander, Duration writeTimeout)
      throws IOException {
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    Selector selector = null;
    try {
      server.bind(UnixDomainSocketAddress.of(socketIn(folder)));
      server.configureBlocking(false);
      selector = Selector.open();
      server.register(selector, SelectionKey.OP_ACCEPT);
      return new HostSignals(rank, ranks, inboxId, lander, writeTimeout, server, selector);
    } catch (IOException | RuntimeException e) {
      server.close();
      if (selector != null) {
        selector.close();
      }
      throw e;
    }
  }

  /**
   * Tells {@code reader} (listening in {@code readerFolder}, with inbox {@code readerInbox}) that
   * {@code notice}'s part waits for it; {@code acknowledged} hears when the reader has landed it.
   *
   * <p>A reader that cannot be reached (its task ended and its folder is gone, or it closed its
   * socket, or left it full for the write timeout) is not an error here: if its task failed, the
   * stage fails with that task's own error and Spark kills this one, rather than with this
   * consequence of it; if not, the part stays unacknowledged and {@code close} names the reader at
   * its deadline.
   */
  void notice(int reader, String readerFolder, String readerInbox, SharedPartNotice notice,
      RpcResponseCallback acknowledged) {
    Connection c = toReader[reader];
    if (c == null) {
      c = connect(reader, readerFolder, readerInbox);
      toReader[reader] = c;
    }
    c.unacknowledged.add(new Pending(notice.header().id(), acknowledged));
    if (!c.ended) {
      ByteBuffer body = notice.encode(); // starts with its kind byte, NOTICE
      try {
        write(c, ByteBuffer.allocate(4 + body.remaining()).putInt(body.remaining()).put(body).flip());
      } catch (IOException e) {
        end(c);
      }
    }
  }

  /** A connection to {@code reader} that has introduced this task, or an ended one when it cannot be reached. */
  private Connection connect(int reader, String readerFolder, String readerInbox) {
    Connection c = null;
    try {
      c = register(SocketChannel.open(UnixDomainSocketAddress.of(socketIn(readerFolder))), reader);
      byte[] inbox = readerInbox.getBytes(StandardCharsets.UTF_8);
      write(c, frame(HELLO, 4 + 4 + inbox.length).putInt(rank).putInt(inbox.length).put(inbox).flip());
      return c;
    } catch (IOException e) {
      if (c == null) {
        c = new Connection(null, reader);
        c.ended = true;
      } else {
        end(c);
      }
      return c;
    }
  }

  /** Acknowledgements not received yet, over all readers. */
  int unacknowledged() {
    int n = 0;
    for (Connection c : toReader) {
      n += c == null ? 0 : c.unacknowledged.size();
    }
    return n;
  }

  /** A failure of the exchange with {@code peer} (-1: of this task's own socket). */
  static final class Failure extends RuntimeException {
    private final int peer;

    Failure(int peer, Exception cause) {
      super(cause.getMessage(), cause);
      this.peer = peer;
    }

    int peer() {
      return peer;
    }
  }

  /**
   * Takes what arrived: new connections, notices (landed and acknowledged) and acknowledgements;
   * waits up to {@code maxWaitNanos} (0: not at all) when nothing has. Throws {@link Failure} when
   * a peer sent something malformed.
   */
  void pump(long maxWaitNanos) {
    try {
      if (maxWaitNanos <= 0) {
        selector.selectNow();
      } else {
        selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(maxWaitNanos)));
      }
    } catch (IOException e) {
      throw new Failure(-1, e);
    }
    for (SelectionKey key : selector.selectedKeys()) {
      if (key.isValid() && key.isAcceptable()) {
        accept();
      } else if (key.isValid() && key.isReadable()) {
        Connection c = (Connection) key.attachment();
        try {
          read(c);
        } catch (IOException | RuntimeException e) {
          throw new Failure(c.peer, e);
        }
      }
    }
    selector.selectedKeys().clear();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (SelectionKey key : selector.keys()) {
      closeQuietly(key.channel());
    }
    closeQuietly(server);
    try {
      selector.close();
    } catch (IOException e) {
      // nothing left to release
    }
  }

  private void accept() {
    try {
      SocketChannel channel;
      while ((channel = server.accept()) != null) {
        register(channel, -1); // the sender's rank comes with its hello
      }
    } catch (IOException e) {
      throw new Failure(-1, e);
    }
  }

  private Connection register(SocketChannel channel, int peer) throws IOException {
    channel.configureBlocking(false);
    Connection c = new Connection(channel, peer);
    channel.register(selector, SelectionKey.OP_READ, c);
    return c;
  }

  private void read(Connection c) throws IOException {
    int n;
    try {
      n = c.channel.read(c.in);
    } catch (IOException e) {
      n = -1; // a peer that died resets the connection: the same as its end
    }
    if (n < 0) {
      end(c);
      return;
    }
    c.in.flip();
    while (c.in.remaining() >= 4 && c.in.remaining() >= 4 + c.in.getInt(c.in.position())) {
      int length = c.in.getInt();
      ByteBuffer body = c.in.slice(c.in.position(), length);
      c.in.position(c.in.position() + length);
      handle(c, body);
    }
    c.in.compact();
  }

  private void handle(Connection c, ByteBuffer body) throws IOException {
    byte kind = body.get();
    if (kind == HELLO && c.peer < 0) {
      int sender = body.getInt();
      String addressedTo = PartHeader.readInboxId(body, "notice-socket hello");
      if (!addressedTo.equals(inboxId) || sender < 0 || sender >= fromSender.length || sender == rank) {
        throw new IOException("rank " + rank + " (inbox " + inboxId + ") refuses a notice socket from rank " + sender
            + " for inbox " + addressedTo);
      }
      c.peer = sender;
      fromSender[sender] = c;
    } else if (kind == NOTICE && c.peer >= 0 && fromSender[c.peer] == c) {
      SharedPartNotice notice = SharedPartNotice.decode(body);
      if (notice.header().sender() != c.peer) {
        throw new IOException("rank " + c.peer + " sent a notice in the name of rank " + notice.header().sender());
      }
      lander.land(notice);
      MessageId id = notice.header().id();
      try {
        write(c, frame(ACK, 8 + 4 * 4).putLong(id.step()).putInt(id.round()).putInt(id.phase()).putInt(id.chunk())
            .putInt(id.part()).flip());
      } catch (IOException e) {
        // The sender is gone (its task ended or failed): nobody needs the answer, and the part landed.
        end(c);
      }
    } else if (kind == ACK && c.peer >= 0 && toReader[c.peer] == c) {
      MessageId id = new MessageId(body.getLong(), body.getInt(), body.getInt(), body.getInt(), body.getInt());
      Pending p = c.unacknowledged.poll();
      if (p == null || !p.id.equals(id)) {
        throw new IOException("rank " + c.peer + " acknowledged " + id.describe() + ", not the part it was sent next");
      }
      p.callback.onSuccess(ByteBuffer.allocate(0));
    } else {
      throw new IOException("unexpected frame of kind " + kind + " on a notice socket of rank " + rank);
    }
  }

  /**
   * The peer closed its end (it finished its stage, or died). Parts sent to it and not acknowledged
   * stay so ({@link #notice} says why that is not an error here).
   */
  private void end(Connection c) {
    c.ended = true;
    SelectionKey key = c.channel.keyFor(selector);
    if (key != null) {
      key.cancel();
    }
    closeQuietly(c.channel);
  }

  /** Writes the whole frame; a reader that leaves its socket full until the deadline is an error. */
  private void write(Connection c, ByteBuffer frame) throws IOException {
    long deadline = System.nanoTime() + writeTimeout.toNanos();
    while (frame.hasRemaining()) {
      if (c.channel.write(frame) == 0) {
        if (System.nanoTime() > deadline) {
          throw new IOException("rank " + c.peer + " read no notices for " + writeTimeout.toMillis()
              + " ms; its socket is full");
        }
        Thread.onSpinWait();
      }
    }
  }

  private static ByteBuffer frame(byte kind, int bodyBytes) {
    return ByteBuffer.allocate(4 + 1 + bodyBytes).putInt(1 + bodyBytes).put(kind);
  }

  private static void closeQuietly(java.nio.channels.Channel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  /** A part sent and not yet acknowledged. */
  private record Pending(MessageId id, RpcResponseCallback callback) {}

  /** One socket to or from a peer. */
  private static final class Connection {
    final SocketChannel channel;
    final ByteBuffer in = ByteBuffer.allocate(READ_BUFFER);
    final Deque<Pending> unacknowledged = new ArrayDeque<>();
    /** The peer's rank; -1 for an accepted socket before its hello. */
    int peer;
    boolean ended;

    Connection(SocketChannel channel, int peer) {
      this.channel = channel;
      this.peer = peer;
    }
  }
}
