package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The warning when local mode runs more replica threads than the machine has cores. */
class LocalModeOversubscriptionTest {
  @Test
  void localModeWithMoreReplicaThreadsThanCoresWarnsWithTheFix() {
    Optional<String> w = Preflight.oversubscription("local[4]", 4, 1, 2);
    assertTrue(w.isPresent());
    assertTrue(w.get().contains("4 replicas") && w.get().contains("2 cores") && w.get().contains("--workers 2"),
        w.get());
    assertTrue(Preflight.oversubscription("local[*]", 2, 2, 2).get().contains("4 compute threads"));
  }

  @Test
  void theWarningSaysTheSyncShareCountsWaitsForAPartnerOnTheSameCoresAndHowToCompare() {
    String w = Preflight.oversubscription("local[4]", 4, 1, 2).orElseThrow();
    assertTrue(w.contains("sync share counts waits") && w.contains("--schedule local"), w);
  }

  @Test
  void enoughCoresOrSeparateExecutorsDoNotWarn() {
    assertEquals(Optional.empty(), Preflight.oversubscription("local[4]", 4, 1, 4));
    assertEquals(Optional.empty(), Preflight.oversubscription("local-cluster[4,1,1024]", 4, 1, 2));
    assertEquals(Optional.empty(), Preflight.oversubscription("spark://127.0.0.1:7077", 8, 1, 2));
  }
}
