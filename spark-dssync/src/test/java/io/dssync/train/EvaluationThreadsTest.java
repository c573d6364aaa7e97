package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;

import org.junit.jupiter.api.Test;

class EvaluationThreadsTest {
  @Test
  void localModeUsesTheCoresItGaveTheTasksUpToWhatTheJvmSees() {
    assertEquals(1, EvaluationThreads.of("local", "client", "1", 8));
    assertEquals(4, EvaluationThreads.of("local[4]", "client", "1", 8));
    assertEquals(2, EvaluationThreads.of("local[4]", "client", "1", 2), "four tasks on a two-core machine");
    assertEquals(8, EvaluationThreads.of("local[*]", "client", "1", 8));
    assertEquals(3, EvaluationThreads.of("local[3, 2]", "client", "1", 8), "with task retries");
    assertEquals(6, EvaluationThreads.of("local[*,4]", "client", "1", 6));
  }

  @Test
  void localClusterUsesTheExecutorsCoresWhichIdleBetweenStages() {
    assertEquals(2, EvaluationThreads.of("local-cluster[2,1,3072]", "client", "1", 2));
    assertEquals(4, EvaluationThreads.of("local-cluster[4, 1, 1536]", "client", "1", 8));
    assertEquals(2, EvaluationThreads.of("local-cluster[4,1,1536]", "client", "1", 2));
  }

  @Test
  void offLocalMastersSparkDriverCoresWhenSet() {
    assertEquals(1, EvaluationThreads.of("spark://10.0.0.1:7077", "client", "1", 16));
    assertEquals(4, EvaluationThreads.of("yarn", "cluster", "4", 16));
    assertEquals(2, EvaluationThreads.of("k8s://https://10.0.0.1:6443", "client", "8", 2));
  }

  @Test
  void unsetAClusterModeDriverHasOneCoreAndAClientModeDriverTheMachineItRunsOn() {
    assertEquals(1, EvaluationThreads.of("yarn", "cluster", null, 16));
    assertEquals(1, EvaluationThreads.of("spark://10.0.0.1:7077", "cluster", null, 16));
    assertEquals(16, EvaluationThreads.of("yarn", "client", null, 16));
    assertEquals(2, EvaluationThreads.of("spark://10.0.0.1:7077", "client", null, 2));
  }

  @Test
  void aBadDriverCoresIsNamedOffLocalMastersAndIgnoredOnThemAsSparkDoes() {
    DsSyncException e = assertThrows(DsSyncException.class, () -> EvaluationThreads.of("yarn", "client", "two", 8));
    assertTrue(e.getMessage().contains("Invalid spark.driver.cores = two"), e.getMessage());
    assertThrows(DsSyncException.class, () -> EvaluationThreads.of("spark://10.0.0.1:7077", "client", "0", 8));
    assertEquals(4, EvaluationThreads.of("local[4]", "client", "two", 8));
  }
}
