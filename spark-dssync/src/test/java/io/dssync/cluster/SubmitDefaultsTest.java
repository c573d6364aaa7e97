package io.dssync.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The settings dssync-submit adds as {@code --conf} are defaults: spark-submit lets a {@code --conf}
 * win over the properties file, so a key the user's {@code DSSYNC_PROPERTIES_FILE} sets must not be
 * passed again. Read from the command the script would run ({@code DSSYNC_DRY_RUN=1}).
 */
class SubmitDefaultsTest {
  @TempDir
  Path dir;

  @Test
  void aKeyThePropertiesFileSetsIsNotOverriddenAndTheOthersStillGetTheirDefaults() throws IOException {
    Path properties = dir.resolve("site.conf");
    Files.writeString(properties, String.join("\n",
        "spark.executorEnv.ENGINE_CACHE_DIR /opt/djl-cache",
        "  spark.standalone.submit.waitAppCompletion=false",
        "spark.yarn.appMasterEnv.MALLOC_TOP_PAD_:1048576",
        ""));
    String withFile = dryRun(properties, "with-file.log");
    assertFalse(withFile.contains("--conf spark.executorEnv.ENGINE_CACHE_DIR="), withFile);
    assertFalse(withFile.contains("--conf spark.standalone.submit.waitAppCompletion="), withFile);
    assertFalse(withFile.contains("--conf spark.yarn.appMasterEnv.MALLOC_TOP_PAD_="), withFile);
    assertTrue(withFile.contains("--conf spark.kubernetes.driverEnv.MALLOC_TOP_PAD_="), withFile);
    assertTrue(withFile.contains("--conf spark.yarn.appMasterEnv.MALLOC_MMAP_THRESHOLD_="), withFile);
    assertTrue(withFile.contains("--properties-file " + properties), withFile);

    String withoutKeys = dryRun(Files.writeString(dir.resolve("empty.conf"), "# nothing set\n"), "empty.log");
    assertTrue(withoutKeys.contains("--conf spark.executorEnv.ENGINE_CACHE_DIR="), withoutKeys);
    assertTrue(withoutKeys.contains("--conf spark.standalone.submit.waitAppCompletion=true"), withoutKeys);
    assertTrue(withoutKeys.contains("--conf spark.yarn.appMasterEnv.MALLOC_TOP_PAD_="), withoutKeys);
  }

  @Test
  void aUsersJarsJoinTheApplicationsJarsInTheOneJarsOption() throws IOException {
    String command = dryRun(Files.writeString(dir.resolve("empty.conf"), "# nothing set\n"), "jars.log",
        "--jars", "/opt/models/my-models.jar");
    assertEquals(1, command.split(" --jars ", -1).length - 1, command);
    String jars = command.substring(command.indexOf(" --jars ") + 8).split(" ")[0];
    assertTrue(jars.contains("spark-dssync") || jars.contains("djl") || jars.contains("api-"), jars);
    assertTrue(jars.endsWith("/opt/models/my-models.jar"), jars);
  }

  /** The spark-submit command dssync-submit prints for a local-mode train with {@code properties}. */
  private String dryRun(Path properties, String log, String... submitOptions) {
    Map<String, String> env = Scripts.env();
    env.put("DSSYNC_PROPERTIES_FILE", properties.toString());
    env.put("DSSYNC_DRY_RUN", "1");
    List<String> command = new java.util.ArrayList<>(List.of(Scripts.script("dssync-submit").toString(), "--master",
        "local[2]"));
    command.addAll(List.of(submitOptions));
    command.addAll(List.of("train", "--epochs", "1"));
    Scripts.Result run = Scripts.run(command, env, Duration.ofSeconds(120), dir.resolve(log));
    assertEquals(0, run.exitCode(), run.output());
    return run.output();
  }
}
