package io.dssync.transport;

import io.dssync.spark.SparkVersions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SecurityManager;
import org.apache.spark.SparkConf;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.StreamCallbackWithID;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientBootstrap;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.crypto.AuthClientBootstrap;
import org.apache.spark.network.crypto.AuthServerBootstrap;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.server.TransportServerBootstrap;
import org.apache.spark.network.util.TransportConf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's endpoint for pushed parts, built on Spark's own network library (the layer under
 * the block transfer service). A part travels as one stream upload: a small header, then the
 * floats, which the receiving side takes piece by piece as they come off the socket (no frame is
 * assembled in memory). A small part travels whole as one RPC ({@link InlinePart}). (Between JVMs
 * of one host the floats wait in shared memory instead and a notice travels over a Unix domain
 * socket: {@link HostSignals}.) The reply to an RPC, like the one to an upload, is the acknowledgement.
 * It is configured the way Spark configures its block transfer service, so {@code spark.authenticate},
 * {@code spark.network.crypto.enabled} and RPC SSL apply. Settings can be tuned under the module
 * name {@code spark.dssync.io.*}.
 */
final class DataChannel implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DataChannel.class);
  /** Module name for TransportConf keys: spark.dssync.io.*, {@code ProcessSettings.CHANNEL_IO}. */
  static final String MODULE = "dssync";

  private final TransportContext context;
  private final TransportServer server;
  private final TransportClientFactory clientFactory;
  private final String host;

  private DataChannel(TransportContext context, TransportServer server,
      TransportClientFactory clientFactory, String host) {
    this.context = context;
    this.server = server;
    this.clientFactory = clientFactory;
    this.host = host;
  }

  /** Where incoming parts go (runs on a network thread). */
  interface Receiver {
    /** The stream callback that takes the floats of a part streamed over the network. */
    StreamCallbackWithID open(PartHeader header);

    /** Lands a small part whose floats came inline ({@code floats} is valid during the call only). */
    void landInline(PartHeader header, ByteBuffer floats) throws Exception;

    /** What the task whose inbox is {@code inboxId} waits for: a peer's question after it gave up on us. */
    PeerWait peerWait(String inboxId);
  }

  /** Starts a server on {@code bindHost}, any free port, handing every incoming part to {@code receiver}. */
  static DataChannel start(SparkConf conf, SecurityManager security, String bindHost, Receiver receiver) {
    // One event-loop thread each side: a task's parts are consumed in order by one task thread anyway.
    TransportConf transportConf = SparkVersions.transportConf(conf, MODULE, 1, security);
    List<TransportServerBootstrap> serverBoot = new ArrayList<>();
    List<TransportClientBootstrap> clientBoot = new ArrayList<>();
    if (security.isAuthenticationEnabled()) {
      serverBoot.add(new AuthServerBootstrap(transportConf, security));
      clientBoot.add(new AuthClientBootstrap(transportConf, conf.getAppId(), security));
    }
    TransportContext context = new TransportContext(transportConf, new Handler(receiver));
    TransportClientFactory factory = null;
    try {
      factory = context.createClientFactory(clientBoot);
      TransportServer server = context.createServer(bindHost, 0, serverBoot);
      return new DataChannel(context, server, factory, bindHost);
    } catch (RuntimeException e) {
      if (factory != null) {
        factory.close();
      }
      context.close();
      throw e;
    }
  }

  String host() {
    return host;
  }

  int port() {
    return server.getPort();
  }

  /**
   * Connects to a peer's signal server. The factory pools connections per address, so repeated
   * calls return the same live client; callers may still cache it.
   */
  TransportClient connect(String peerHost, int peerPort) throws IOException, InterruptedException {
    return clientFactory.createClient(peerHost, peerPort);
  }

  @Override
  public void close() {
    clientFactory.close();
    server.close();
    context.close();
  }

  /** Hands stream uploads to the receiver; plain messages and RPCs are not part of the protocol. */
  private static final class Handler extends RpcHandler {
    private final Receiver receiver;
    private final StreamManager streams = new OneForOneStreamManager();

    Handler(Receiver receiver) {
      this.receiver = receiver;
    }

    @Override
    public StreamCallbackWithID receiveStream(TransportClient client, ByteBuffer header, RpcResponseCallback callback) {
      // Throwing here makes Spark answer the sender with a failure and close the connection.
      return receiver.open(PartHeader.decode(header));
    }

    @Override
    public void receive(TransportClient client, ByteBuffer message) {
      LOG.warn("Ignoring a dssync one-way message from {}: parts travel as stream uploads or inline RPCs",
          client.getSocketAddress());
    }

    /**
     * A small part inline: the reply acknowledges it. Or a peer's question what this task is
     * waiting for: the reply answers it.
     */
    @Override
    public void receive(TransportClient client, ByteBuffer message, RpcResponseCallback callback) {
      try {
        byte kind = message.get();
        if (kind == InlinePart.KIND) {
          receiver.landInline(PartHeader.decode(message), message);
        } else if (kind == PeerWait.QUERY_KIND) {
          callback.onSuccess(receiver.peerWait(PeerWait.queriedInbox(message)).encode());
          return;
        } else {
          throw new IllegalArgumentException("unknown dssync message kind " + kind);
        }
      } catch (Exception e) {
        callback.onFailure(e);
        return;
      }
      callback.onSuccess(ByteBuffer.allocate(0));
    }

    @Override
    public StreamManager getStreamManager() {
      return streams;
    }
  }
}
