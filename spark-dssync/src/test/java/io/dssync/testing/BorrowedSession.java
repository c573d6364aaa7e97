package io.dssync.testing;

import org.apache.spark.sql.SparkSession;

/**
 * A Spark session for tests whose Spark work stays on the driver (saving and loading model directories,
 * a small transform): the session this JVM already runs, if any, which {@link #close} leaves running for the
 * classes that share it; else a {@code local[1]} one, started in seconds, which {@link #close} stops.
 */
public final class BorrowedSession implements AutoCloseable {
  private final SparkSession spark;
  private final boolean own;

  private BorrowedSession(SparkSession spark, boolean own) {
    this.spark = spark;
    this.own = own;
  }

  public static BorrowedSession open() {
    scala.Option<SparkSession> running = SparkSession.getDefaultSession();
    if (running.isDefined()) {
      return new BorrowedSession(running.get(), false);
    }
    return new BorrowedSession(SparkSession.builder().master("local[1]").appName("dssync-test")
        .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false").getOrCreate(), true);
  }

  public SparkSession spark() {
    return spark;
  }

  @Override
  public void close() {
    if (own) {
      spark.stop();
    }
  }
}
