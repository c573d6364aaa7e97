package io.dssync.transport;

import io.dssync.spark.SparkVersions;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.buffer.NioManagedBuffer;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientBootstrap;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.crypto.AuthClientBootstrap;
import org.apache.spark.network.sasl.SecretKeyHolder;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.network.util.TransportConf;

/**
 * A client built by hand (as an intruder on the network would), pushing a part into a task's
 * data channel: with no authentication, with a wrong secret, or with the right one.
 */
final class PartPushProbe {
  enum Credentials { NONE, WRONG, RIGHT }

  private PartPushProbe() {}

  /** "accepted" when the receiving task acknowledged the part, else "rejected (reason)". */
  static String push(PeerAddress to, PartHeader header, float[] floats, Credentials credentials) {
    SparkConf conf = SparkEnv.get().conf();
    TransportConf transportConf = SparkVersions.transportConf(conf, "dssync", 1, SparkEnv.get().securityManager());
    java.util.List<TransportClientBootstrap> boot = new java.util.ArrayList<>();
    if (credentials == Credentials.RIGHT) {
      boot.add(new AuthClientBootstrap(transportConf, conf.getAppId(), SparkEnv.get().securityManager()));
    } else if (credentials == Credentials.WRONG) {
      boot.add(new AuthClientBootstrap(transportConf, conf.getAppId(), new SecretKeyHolder() {
        @Override
        public String getSaslUser(String appId) {
          return "sparkSaslUser";
        }

        @Override
        public String getSecretKey(String appId) {
          return "not-the-secret";
        }
      }));
    }
    try (TransportContext context = new TransportContext(transportConf, new NoServer());
        TransportClientFactory factory = context.createClientFactory(boot)) {
      TransportClient client = factory.createClient(to.host(), to.port());
      ByteBuffer body = ByteBuffer.allocate(FloatCodec.byteSize(floats.length));
      FloatCodec.encode(floats, 0, floats.length, body);
      CompletableFuture<String> outcome = new CompletableFuture<>();
      client.uploadStream(new NioManagedBuffer(header.encode()), new NioManagedBuffer(body), new RpcResponseCallback() {
        @Override
        public void onSuccess(ByteBuffer response) {
          outcome.complete("accepted");
        }

        @Override
        public void onFailure(Throwable e) {
          outcome.completeExceptionally(e);
        }
      });
      return outcome.get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      String reason = String.valueOf(cause.getMessage());
      return "rejected (" + cause.getClass().getSimpleName() + ": " + reason.lines().findFirst().orElse("") + ")";
    }
  }

  private static final class NoServer extends RpcHandler {
    @Override
    public void receive(TransportClient client, ByteBuffer message, RpcResponseCallback callback) {
      callback.onFailure(new UnsupportedOperationException("client only"));
    }

    @Override
    public StreamManager getStreamManager() {
      return new OneForOneStreamManager();
    }
  }
}
