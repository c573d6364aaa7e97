package io.dssync.errors;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Errors about a training setting name it by the flag the user types, not by its Spark conf key. */
class SettingsNamedByFlagTest {
  @Test
  void timeoutAndRetryErrorsNameTheFlag() {
    String timeout = ClusterErrors.peerTimeout(1, 2, 7, "a chunk", 3000).getMessage();
    assertTrue(timeout.contains("--sync-timeout-ms"), timeout);
    assertFalse(timeout.contains("dssync."), timeout);
    String retries = TrainingErrors.stageAttemptsExhausted(3, 2, ClusterErrors.peerTimeout(1, 2, 7, "a chunk",
        3000)).getMessage();
    assertTrue(retries.contains("--max-stage-attempts = 2"), retries);
    assertFalse(retries.contains("dssync.maxStageAttempts"), retries);
  }

  @Test
  void flagIsTheKebabCaseOfTheSettingName() {
    assertTrue(Errors.invalidFlag("threadsPerWorker", 0, "must be at least 1", "").getMessage()
        .startsWith("Invalid --threads-per-worker = 0"));
  }
}
