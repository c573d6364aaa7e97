package io.dssync.spark;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import org.apache.spark.SecurityManager;
import org.apache.spark.SparkConf;
import org.apache.spark.network.netty.SparkTransportConf;
import org.apache.spark.network.util.TransportConf;
import scala.Option;

/**
 * The one call into Spark internals whose signature differs between the Spark versions we build for, chosen
 * when the class loads so that one jar per Scala version runs on each. As {@code javap} shows them:
 * <ul>
 *   <li>Spark 3.5: {@code SparkTransportConf.fromSparkConf(SparkConf, String, int, Option<String>)};</li>
 *   <li>Spark 4.0 to 4.2: {@code fromSparkConf(SparkConf, String, int, Option<String>, Option<SSLOptions>)},
 *       the options from {@code SecurityManager.getRpcSSLOptions()} (RPC SSL is new in 4.0).</li>
 * </ul>
 */
public final class SparkVersions {
  private static final Method FROM_SPARK_CONF = fromSparkConf();
  private static final Method RPC_SSL_OPTIONS =
      FROM_SPARK_CONF.getParameterCount() == 5 ? method(SecurityManager.class, "getRpcSSLOptions") : null;

  private SparkVersions() {}

  /**
   * Spark's network settings for {@code module} as the block transfer service takes them, RPC SSL included
   * where Spark has it.
   */
  public static TransportConf transportConf(SparkConf conf, String module, int threads, SecurityManager security) {
    Object[] args = RPC_SSL_OPTIONS == null
        ? new Object[] {conf, module, threads, Option.empty()}
        : new Object[] {conf, module, threads, Option.empty(), Option.apply(invoke(RPC_SSL_OPTIONS, security))};
    return (TransportConf) invoke(FROM_SPARK_CONF, null, args);
  }

  private static Method fromSparkConf() {
    return Arrays.stream(SparkTransportConf.class.getMethods())
        .filter(m -> m.getName().equals("fromSparkConf") && m.getParameterCount() >= 4)
        .max((a, b) -> Integer.compare(a.getParameterCount(), b.getParameterCount()))
        .orElseThrow(() -> new IllegalStateException("this Spark has no SparkTransportConf.fromSparkConf with"
            + " the arguments of Spark 3.5 to 4.2: run spark-dssync on a Spark version docs/compatibility.md lists"));
  }

  private static Method method(Class<?> owner, String name) {
    try {
      return owner.getMethod(name);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("this Spark's " + owner.getSimpleName() + " has no " + name + "(), which"
          + " Spark 4.0 to 4.2 have: run spark-dssync on a Spark version docs/compatibility.md lists", e);
    }
  }

  private static Object invoke(Method method, Object target, Object... args) {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(method.getName() + " failed: " + cause, cause);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot call Spark's " + method.getName(), e);
    }
  }
}
