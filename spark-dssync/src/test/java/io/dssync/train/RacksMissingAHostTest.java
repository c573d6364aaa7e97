package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.schedule.RackLayout;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import io.dssync.spark.ExecutorHosts;
import java.util.SortedSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * {@code --racks} that leaves out a host of the cluster's executors fails on the driver before any
 * training stage, naming the host; before, each barrier task failed with it (a stack trace apiece).
 */
class RacksMissingAHostTest {
  @Test
  void racksThatLeaveOutAnExecutorHostFailBeforeTheFirstStageNamingIt() {
    SparkSession spark = TestSpark.session();
    DatasetSplits data = TestData.fashionMnist(256, 50);
    TrainerConfig config = TrainerConfig.builder()
        .set(TrainerConfig.WORKERS, 2).set(TrainerConfig.SCHEDULE, "topology").set(TrainerConfig.MODEL, "mlp")
        .set(TrainerConfig.RACKS, "10.99.0.1;10.99.0.2").set(TrainerConfig.BATCH_SIZE, 32)
        .set(TrainerConfig.EPOCHS, 1).set(TrainerConfig.SLOT_WAIT_MS, 30_000).build();
    AtomicInteger stages = new AtomicInteger();
    DsSyncException e = assertThrows(DsSyncException.class, () -> new DsSyncTrainer(spark, config)
        .withProgress((m, steps, done, total) -> stages.incrementAndGet()).fit(TrainingData.of(spark, data, 2)));

    assertEquals(ErrorKind.CONFIG, e.kind());
    Matcher m = Pattern.compile("Invalid --racks = 10\\.99\\.0\\.1;10\\.99\\.0\\.2: executor hosts? (\\S+?),? .*"
        + "in none of the racks\\. Add .* to one of the racks, or leave --racks empty").matcher(e.getMessage());
    assertTrue(m.find(), e.getMessage());
    String host = m.group(1);
    assertTrue(spark.sparkContext().getExecutorMemoryStatus().keySet().exists(k -> k.startsWith(host + ":")),
        host + " is a block manager's host");
    assertFalse(e.getMessage().contains("rank"), "found by the driver, not inside a task: " + e.getMessage());
    assertEquals(0, stages.get(), "no training stage ran");
  }

  @Test
  void racksThatListEveryExecutorHostPassTheDriversCheck() {
    SparkSession spark = TestSpark.session();
    SortedSet<String> hosts = ExecutorHosts.of(spark.sparkContext());
    assertFalse(hosts.isEmpty());
    RackLayout.parse(String.join(",", hosts) + ";10.99.0.1").requireListed(hosts);
  }
}
