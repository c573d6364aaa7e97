package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.replica.NativeAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The warning when replicas would run under glibc's default malloc, and the scripts' settings. */
class MallocSettingsWarningTest {
  private static final Map<String, String> TUNED = Map.of("MALLOC_TOP_PAD_", "67108864");

  @Test
  void localModeWithoutTheSettingsWarnsWithTheExportLine() {
    Optional<String> w = Preflight.allocatorWarning("local[4]", Map.of(), Map.of("PATH", "/bin"), "Linux");
    assertTrue(w.isPresent());
    assertTrue(w.get().contains("this JVM (local[4])"), w.get());
    assertTrue(w.get().contains("export " + NativeAllocator.shellLine()), w.get());
  }

  @Test
  void localModeWithTheSettingsOrGlibcTunablesOrAnotherOsIsQuiet() {
    assertEquals(Optional.empty(), Preflight.allocatorWarning("local[4]", Map.of(), TUNED, "Linux"));
    assertEquals(Optional.empty(), Preflight.allocatorWarning("local", Map.of(),
        Map.of("GLIBC_TUNABLES", "glibc.malloc.top_pad=67108864"), "Linux"));
    assertEquals(Optional.empty(), Preflight.allocatorWarning("local[4]", Map.of(), Map.of(), "Mac OS X"));
  }

  @Test
  void clusterExecutorsAreJudgedByTheirExecutorEnvNotByTheDriversEnvironment() {
    Optional<String> w = Preflight.allocatorWarning("spark://127.0.0.1:7077", Map.of(), TUNED, "Linux");
    assertTrue(w.isPresent());
    assertTrue(w.get().contains("--conf spark.executorEnv.MALLOC_TOP_PAD_=67108864"), w.get());
    assertEquals(Optional.empty(), Preflight.allocatorWarning("yarn", TUNED, Map.of(), "Linux"));
  }

  @Test
  void localClusterExecutorsInheritTheDriversEnvironment() {
    assertEquals(Optional.empty(), Preflight.allocatorWarning("local-cluster[2,1,1024]", Map.of(), TUNED, "Linux"));
    assertTrue(Preflight.allocatorWarning("local-cluster[2,1,1024]", Map.of(), Map.of(), "Linux").isPresent());
  }

  @Test
  void aDriverOffLocalMastersIsWarnedForItsEvaluationsUnlessItsEnvironmentHasTheSettings() {
    Optional<String> w = Preflight.evaluationAllocatorWarning("spark://127.0.0.1:7077", Map.of(), "Linux");
    assertTrue(w.isPresent());
    assertTrue(w.get().contains("the driver (spark://127.0.0.1:7077)"), w.get());
    assertTrue(w.get().contains("export " + NativeAllocator.shellLine()), w.get());
    assertTrue(w.get().contains("spark.yarn.appMasterEnv."), w.get());
    assertEquals(Optional.empty(), Preflight.evaluationAllocatorWarning("yarn", TUNED, "Linux"));
    assertTrue(Preflight.evaluationAllocatorWarning("local-cluster[2,1,1024]", Map.of(), "Linux").isPresent());
    // In local mode the driver runs the replicas too: allocatorWarning names it once.
    assertEquals(Optional.empty(), Preflight.evaluationAllocatorWarning("local[4]", Map.of(), "Linux"));
  }

  @Test
  void theScriptsSettingsFileHoldsTheSameValuesAsTheLibrary() throws Exception {
    Path file = Path.of("").toAbsolutePath().getParent().resolve("submit-scripts").resolve("malloc-env");
    assertEquals(NativeAllocator.shellLine(), Files.readString(file).strip());
  }
}
