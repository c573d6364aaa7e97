package io.dssync.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SparkSessionsTest {
  @Test
  void localClusterExecutorsKeepTheJavaOptionsTheUserGaveThem() {
    assertEquals("-Xlog:gc -Dai.djl.offline=true", SparkSessions.localClusterExecutorOptions(" -Xlog:gc "));
    assertEquals("-Dai.djl.offline=true", SparkSessions.localClusterExecutorOptions(null));
    assertEquals("-Dai.djl.offline=true", SparkSessions.localClusterExecutorOptions(""));
  }
}
