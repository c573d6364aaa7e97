package io.dssync.transport;

import java.nio.ByteBuffer;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.client.RpcResponseCallback;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientBootstrap;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.crypto.AuthClientBootstrap;
import org.apache.spark.network.netty.SparkTransportConf;
import org.apache.spark.network.sasl.SecretKeyHolder;
import org.apache.spark.network.server.OneForOneStreamManager;
import org.apache.spark.network.server.RpcHandler;
import org.apache.spark.network.server.StreamManager;
import org.apache.spark.network.shuffle.protocol.BlockTransferMessage;
import org.apache.spark.network.shuffle.protocol.OpenBlocks;
import org.apache.spark.network.shuffle.protocol.StreamHandle;
import org.apache.spark.network.util.TransportConf;
import scala.Option;

/**
 * A block client built by hand (as an intruder on the network would), asking an executor's block
 * manager to open a block: with no authentication, with a wrong secret, or with the right one.
 */
final class BlockFetchProbe {
  enum Credentials { NONE, WRONG, RIGHT }

  private BlockFetchProbe() {}

  /** "opened N chunk(s)" or "rejected (reason)". */
  static String openBlocks(PeerAddress owner, String block, Credentials credentials) {
    SparkConf conf = SparkEnv.get().conf();
    TransportConf transportConf = SparkTransportConf.fromSparkConf(conf, "shuffle", 1, Option.empty(), Option.empty());
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
      TransportClient client = factory.createClient(owner.blockHost(), owner.blockPort());
      ByteBuffer reply = client.sendRpcSync(
          new OpenBlocks(conf.getAppId(), owner.executorId(), new String[] {block}).toByteBuffer(), 10_000);
      StreamHandle handle = (StreamHandle) BlockTransferMessage.Decoder.fromByteBuffer(reply);
      return "opened " + handle.numChunks + " chunk";
    } catch (Exception e) {
      String reason = String.valueOf(e.getMessage());
      return "rejected (" + e.getClass().getSimpleName() + ": " + reason.lines().findFirst().orElse("") + ")";
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
