package io.dssync.transport;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.spark.SecurityManager;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientBootstrap;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.crypto.AuthClientBootstrap;
import org.apache.spark.network.crypto.AuthServerBootstrap;
import org.apache.spark.network.netty.SparkTransportConf;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.server.TransportServerBootstrap;
import org.apache.spark.network.util.TransportConf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * One task's endpoint for {@link Signal}s, built on Spark's own network library (the layer under
 * the block transfer service). It is configured the way Spark configures its block transfer
 * service, so {@code spark.authenticate}, {@code spark.network.crypto.enabled} and RPC SSL apply to
 * these messages too. Settings can be tuned under the module name {@code spark.dssync.io.*}.
 */
final class SignalChannel implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SignalChannel.class);
  /** Module name for TransportConf keys (spark.dssync.io.*). */
  private static final String MODULE = "dssync";

  private final TransportContext context;
  private final TransportServer server;
  private final TransportClientFactory clientFactory;
  private final String host;

  private SignalChannel(TransportContext context, TransportServer server,
      TransportClientFactory clientFactory, String host) {
    this.context = context;
    this.server = server;
    this.clientFactory = clientFactory;
    this.host = host;
  }

  /** Starts a server on {@code bindHost}, any free port; {@code onSignal} runs on a network thread. */
  static SignalChannel start(SparkEnv env, String bindHost, Consumer<Signal> onSignal) {
    SparkConf conf = env.conf();
    SecurityManager security = env.securityManager();
    // One event-loop thread each side: these messages are a few dozen bytes.
    TransportConf transportConf = SparkTransportConf.fromSparkConf(
        conf, MODULE, 1, Option.empty(), Option.apply(security.getRpcSSLOptions()));
    List<TransportServerBootstrap> serverBoot = new ArrayList<>();
    List<TransportClientBootstrap> clientBoot = new ArrayList<>();
    if (security.isAuthenticationEnabled()) {
      serverBoot.add(new AuthServerBootstrap(transportConf, security));
      clientBoot.add(new AuthClientBootstrap(transportConf, conf.getAppId(), security));
    }
    TransportContext context = new TransportContext(transportConf, new Handler(onSignal));
    TransportClientFactory factory = null;
    try {
      factory = context.createClientFactory(clientBoot);
      TransportServer server = context.createServer(bindHost, 0, serverBoot);
      return new SignalChannel(context, server, factory, bindHost);
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

  /** Decodes one-way messages and hands them on; request-response RPCs are not part of the protocol. */
  private static final class Handler extends RpcHandler {
    private final Consumer<Signal> onSignal;
    private final StreamManager streams = new OneForOneStreamManager();

    Handler(Consumer<Signal> onSignal) {
      this.onSignal = onSignal;
    }

    @Override
    public void receive(TransportClient client, java.nio.ByteBuffer message) {
      try {
        onSignal.accept(Signal.decode(message));
      } catch (RuntimeException e) {
        // A bad message must not kill the connection that carries the good ones.
        LOG.warn("Ignoring a dssync signal from {}: {}", client.getSocketAddress(), e.toString());
      }
    }

    @Override
    public void receive(TransportClient client, java.nio.ByteBuffer message, RpcResponseCallback callback) {
      callback.onFailure(new UnsupportedOperationException("dssync signals are one-way messages"));
    }

    @Override
    public StreamManager getStreamManager() {
      return streams;
    }
  }
}
