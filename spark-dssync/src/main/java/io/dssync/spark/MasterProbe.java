package io.dssync.spark;

import io.dssync.errors.ClusterErrors;
import java.time.Duration;
import org.apache.spark.SecurityManager;
import org.apache.spark.SparkConf;
import org.apache.spark.internal.config.package$;
import org.apache.spark.rpc.RpcAddress$;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.rpc.RpcEnv$;
import scala.Option;

/**
 * Asks a standalone master whether it accepts this application's connection before a SparkContext
 * registers with it. Spark's own registration retries a refused or unreachable master for a fixed
 * 3 x 20 s and then ends with "All masters are unresponsive"; a master that requires
 * authentication refuses an application without its secret at the first RPC, so one RPC with the
 * application's settings finds that out at once and can say what to do.
 */
public final class MasterProbe {
  /** The standalone master's RPC endpoint name (org.apache.spark.deploy.master.Master.ENDPOINT_NAME). */
  private static final String MASTER_ENDPOINT = "Master";

  private MasterProbe() {}

  /**
   * Throws a clear error when the standalone master at {@code masterUrl} (spark://host:port)
   * refuses or does not answer one RPC with the settings of {@code conf} within {@code deadline}.
   */
  public static void requireAccepted(String masterUrl, SparkConf conf, Duration deadline) {
    SparkConf probe = conf.clone()
        .set("spark.rpc.lookupTimeout", deadline.toMillis() + "ms")
        .set("spark.rpc.askTimeout", deadline.toMillis() + "ms");
    SecurityManager security = new SecurityManager(probe, Option.empty(), package$.MODULE$.AUTH_SECRET_FILE_DRIVER());
    if (security.isAuthenticationEnabled()) {
      security.initializeAuth();
    }
    // Client mode: no server socket of its own, only the outgoing connection to the master.
    RpcEnv rpc = RpcEnv$.MODULE$.create("dssync-master-probe", "127.0.0.1", 0, probe, security, true);
    try {
      rpc.setupEndpointRef(RpcAddress$.MODULE$.fromSparkURL(masterUrl), MASTER_ENDPOINT);
    } catch (Exception e) { // Spark's own SparkException is a checked exception in Java's eyes
      throw ClusterErrors.masterRefused(masterUrl, security.isAuthenticationEnabled(), rootMessage(e));
    } finally {
      rpc.shutdown();
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    // A failure the master reports comes back as its stack trace: its first line is the reason.
    return text.lines().findFirst().orElse(text);
  }
}
