package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.testing.TestSpark;
import java.time.Duration;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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

  @Test
  void aLocalOrLocalClusterUrlFixesTheMostSlotsAClusterLeavesThemOpen() {
    assertEquals(1, ClusterSlots.mostSlots("local", 1));
    assertEquals(4, ClusterSlots.mostSlots("local[4]", 1));
    assertEquals(2, ClusterSlots.mostSlots("local[4]", 2));
    assertEquals(3, ClusterSlots.mostSlots("local[3,2]", 1));
    assertEquals(Runtime.getRuntime().availableProcessors(), ClusterSlots.mostSlots("local[*]", 1));
    assertEquals(4, ClusterSlots.mostSlots("local-cluster[2,2,1024]", 1));
    assertEquals(2, ClusterSlots.mostSlots("local-cluster[2,2,1024]", 2));
    assertEquals(Integer.MAX_VALUE, ClusterSlots.mostSlots("spark://127.0.0.1:7077", 1));
    assertEquals(Integer.MAX_VALUE, ClusterSlots.mostSlots("yarn", 1));
  }

  /** Before, it waited out the whole deadline (60 s by default) for slots the URL can never give. */
  @Test
  @Timeout(180)
  void moreWorkersThanALocalClusterUrlHoldsFailAtOnceInsteadOfWaitingOutTheDeadline() {
    SparkContext sc = TestSpark.session().sparkContext();
    int slots = TestSpark.EXECUTORS;
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> ClusterSlots.await(sc, slots + 1, Duration.ofMinutes(30)));
    assertTrue(e.getMessage().contains("cluster (" + sc.master() + ") offers " + slots), e.getMessage());
  }
}
