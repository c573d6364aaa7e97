package io.dssync.spark;

import org.apache.spark.SecurityManager;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext$;
import org.apache.spark.SparkEnv;

/**
 * What Spark's environment of this JVM holds that spark-dssync needs: which JVM of the application it is, and,
 * for the data plane, its configuration, security manager and the host its block manager binds to.
 */
public final class SparkEnvs {
  private SparkEnvs() {}

  /** This JVM's executor id ("driver" on the driver and in local mode), or null outside a Spark application. */
  public static String executorId() {
    SparkEnv env = SparkEnv.get();
    return env == null ? null : env.executorId();
  }

  /** Whether {@code executorId} is the driver's (local mode's tasks run there too). */
  public static boolean isDriver(String executorId) {
    return SparkContext$.MODULE$.DRIVER_IDENTIFIER().equals(executorId);
  }

  /** Whether this JVM is the driver, or no Spark application runs in it. */
  public static boolean onDriver() {
    String id = executorId();
    return id == null || isDriver(id);
  }

  /** "on executor 3" or "on the driver", for messages. */
  public static String describe() {
    return onDriver() ? "on the driver" : "on executor " + executorId();
  }

  /** This JVM's Spark configuration (an executor's as its driver sent it). */
  public static SparkConf conf() {
    return SparkEnv.get().conf();
  }

  /** The security manager that Spark's own network connections of this JVM authenticate and encrypt with. */
  public static SecurityManager security() {
    return SparkEnv.get().securityManager();
  }

  /** The address this JVM's block manager binds to: the executor's own, reachable by its peers. */
  public static String blockManagerHost() {
    return SparkEnv.get().blockManager().blockManagerId().host();
  }
}
