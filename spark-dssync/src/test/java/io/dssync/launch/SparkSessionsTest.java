package io.dssync.launch;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.train.LocalClusterMaster;

import org.junit.jupiter.api.Test;

class SparkSessionsTest {
  @Test
  void localClusterExecutorsKeepTheJavaOptionsTheUserGaveThem() {
    assertEquals("-Xlog:gc -Dai.djl.offline=true", SparkSessions.localClusterExecutorOptions(" -Xlog:gc "));
    assertEquals("-Dai.djl.offline=true", SparkSessions.localClusterExecutorOptions(null));
    assertEquals("-Dai.djl.offline=true", SparkSessions.localClusterExecutorOptions(""));
  }

  @Test
  void aLocalClusterWhoseWorkersHaveLessMemoryThanAnExecutorIsRefusedWithTheNumbersAndAFix() {
    String m = refusal("local-cluster[2,1,100]", 1024, 1);
    assertTrue(m.contains("Invalid --master = local-cluster[2,1,100]"), m);
    assertTrue(m.contains("each worker has 100 MiB but an executor asks for 1024 MiB"), m);
    assertTrue(m.contains("local-cluster[2,1,2048]"), m);
  }

  @Test
  void aLocalClusterWithFewerCoresPerExecutorThanThreadsPerWorkerIsRefusedWithAFix() {
    String m = refusal("local-cluster[2,1,3072]", 1024, 2);
    assertTrue(m.contains("each executor has 1 core(s) but --threads-per-worker 2"), m);
    assertTrue(m.contains("local-cluster[2,2,3072]"), m);
  }

  /** The message requireExecutorsFit refuses {@code master} with, asked for these executors. */
  private static String refusal(String master, long executorMemoryMb, int taskCpus) {
    return assertThrows(DsSyncException.class, () -> SparkSessions.requireExecutorsFit(master,
        LocalClusterMaster.parse(master).orElseThrow(), executorMemoryMb, taskCpus)).getMessage();
  }

  @Test
  void aLocalClusterThatFitsItsExecutorsPasses() {
    String master = "local-cluster[2,2,3072]";
    LocalClusterMaster cluster = LocalClusterMaster.parse(master).orElseThrow();
    assertDoesNotThrow(() -> SparkSessions.requireExecutorsFit(master, cluster, 3072, 2));
  }

  @Test
  void aYarnOrKubernetesMasterWithoutItsSparkModuleSaysHowToSubmitInstead() {
    DsSyncException yarn = assertThrows(DsSyncException.class,
        () -> SparkSessions.requireClusterManager("yarn", name -> false));
    assertTrue(yarn.getMessage().contains("Invalid --master = yarn: this class path has no Spark YARN module"),
        yarn.getMessage());
    assertTrue(yarn.getMessage().contains("submit-scripts/examples/yarn.sh"), yarn.getMessage());
    DsSyncException k8s = assertThrows(DsSyncException.class,
        () -> SparkSessions.requireClusterManager("k8s://https://127.0.0.1:6443", name -> false));
    assertTrue(k8s.getMessage().contains("no Spark Kubernetes module"), k8s.getMessage());
    assertDoesNotThrow(() -> SparkSessions.requireClusterManager("yarn", name -> name.endsWith("YarnClusterManager")));
    assertDoesNotThrow(() -> SparkSessions.requireClusterManager("local[2]", name -> false));
  }

  @Test
  void aMasterUrlSparkWouldNotParseIsRefusedWithTheFormsThatWork() {
    for (String bad : new String[] {"bogus://x", "locl[4]", "local[ 4]", "local[four]", "spark", "yarn-client"}) {
      DsSyncException e = assertThrows(DsSyncException.class, () -> SparkSessions.requireKnownMaster(bad), bad);
      assertTrue(e.getMessage().startsWith(
          "Invalid --master = " + bad + ": not a master URL Spark knows. Use local[N]"), e.getMessage());
      assertTrue(e.getMessage().contains("local-cluster[n,c,m]") && e.getMessage().contains("spark://host:port"),
          e.getMessage());
    }
  }

  @Test
  void aLocalMasterWithoutThreadsOrALocalClusterWithoutExecutorsIsRefused() {
    assertTrue(assertThrows(DsSyncException.class, () -> SparkSessions.requireKnownMaster("local[0]")).getMessage()
        .contains("local mode needs at least one thread"));
    assertTrue(assertThrows(DsSyncException.class, () -> SparkSessions.requireKnownMaster("local-cluster[0,1,1024]"))
        .getMessage().contains("at least one executor of one core"));
    assertTrue(assertThrows(DsSyncException.class, () -> SparkSessions.requireKnownMaster("local-cluster[2,0,1024]"))
        .getMessage().contains("at least one executor of one core"));
  }

  @Test
  void everyMasterFormSparkParsesPasses() {
    for (String good : new String[] {"local", "local[1]", "local[*]", "local[4,3]", "local[*, 2]",
        "local-cluster[2,1,3072]", "local-cluster[ 2 , 1 , 1024 ]", "spark://127.0.0.1:7077",
        "spark://h1:7077,h2:7077", "yarn", "k8s://https://127.0.0.1:6443"}) {
      assertDoesNotThrow(() -> SparkSessions.requireKnownMaster(good), good);
    }
  }
}
