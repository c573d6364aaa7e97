package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class LocalClusterMasterTest {
  @Test
  void readsExecutorsCoresAndMemoryWithSpacesAsSparkDoes() {
    assertEquals(Optional.of(new LocalClusterMaster(2, 1, 3072)), LocalClusterMaster.parse("local-cluster[2,1,3072]"));
    LocalClusterMaster spaced = LocalClusterMaster.parse("local-cluster[ 4 , 2 , 1536 ]").orElseThrow();
    assertEquals(new LocalClusterMaster(4, 2, 1536), spaced);
    assertEquals(8, spaced.cores());
  }

  @Test
  void otherMastersAndIncompleteUrlsAreNotLocalClusters() {
    assertEquals(Optional.empty(), LocalClusterMaster.parse("local[4]"));
    assertEquals(Optional.empty(), LocalClusterMaster.parse("local-cluster[2,1]"));
    assertEquals(Optional.empty(), LocalClusterMaster.parse("spark://127.0.0.1:7077"));
  }
}
