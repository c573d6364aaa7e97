package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class ClusterSlotsTest {
  @Test
  void dynamicAllocationIsRejectedNamingTheSettingAndTheFix() {
    SparkConf conf = new SparkConf(false).set("spark.dynamicAllocation.enabled", "true");
    DsSyncException e = assertThrows(DsSyncException.class, () -> ClusterSlots.requireStaticAllocation(conf));
    assertTrue(e.getMessage().contains("spark.dynamicAllocation.enabled"), e.getMessage());
    assertTrue(e.getMessage().contains("=false"), e.getMessage());
  }

  @Test
  void staticAllocationIsAccepted() {
    assertDoesNotThrow(() -> ClusterSlots.requireStaticAllocation(new SparkConf(false)));
    assertDoesNotThrow(() -> ClusterSlots.requireStaticAllocation(
        new SparkConf(false).set("spark.dynamicAllocation.enabled", "false")));
  }
}
