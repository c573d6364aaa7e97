package io.dssync.data.table;

import io.dssync.testing.TestSpark;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The shared test session switched to {@code local[2]}: reading and checking tables needs no
 * executor JVMs, and local mode starts in seconds. Classes that use it carry
 * {@code @Order(ORDER)}, which puts them after every class on the default local-cluster session
 * and before the two transport classes that restart it last, so the suite pays one extra start.
 */
final class LocalSpark {
  static final int ORDER = Integer.MAX_VALUE - 2;

  private LocalSpark() {}

  static SparkSession session() {
    return TestSpark.session(Map.of("spark.master", "local[2]"));
  }
}
