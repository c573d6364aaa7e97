package io.dssync.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dssync.cli.ConfigurationReference;
import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md's tables are what {@link ConfigurationReference} generates from the settings'
 * declarations. With {@code -Ddssync.regenerateDocs=true} the test rewrites the page instead of failing.
 */
class ConfigurationReferenceTest {
  private static final Path PAGE = RepoFiles.root().resolve("docs/configuration.md");

  @Test
  void theCommittedPageHoldsTheGeneratedTables() throws Exception {
    String committed = Files.readString(PAGE, StandardCharsets.UTF_8);
    String generated = ConfigurationReference.update(committed);
    if (Boolean.getBoolean("dssync.regenerateDocs")) {
      Files.writeString(PAGE, generated, StandardCharsets.UTF_8);
      return;
    }
    if (!generated.equals(committed)) {
      fail("docs/configuration.md is out of date with the settings' declarations (first difference at line "
          + firstDifferentLine(committed, generated) + "). Regenerate it with\n  "
          + ConfigurationReference.REGENERATE + "\nfrom the repository's root, then commit the page.");
    }
  }

  @Test
  void everySettingIsOnThePage() {
    String block = ConfigurationReference.block();
    for (Setting<?> s : TrainerConfig.ALL) {
      assertTrue(block.contains("| `" + s.flag() + "` |"), s.flag());
    }
  }

  @Test
  void proseAroundTheBlockIsKept() {
    String page = "# Title\nintro\n" + ConfigurationReference.BEGIN + "\nstale\n" + ConfigurationReference.END
        + "\nafter\n";
    String updated = ConfigurationReference.update(page);
    assertTrue(updated.startsWith("# Title\nintro\n" + ConfigurationReference.BEGIN + "\n"), updated);
    assertTrue(updated.endsWith(ConfigurationReference.END + "\nafter\n"), updated);
    assertEquals(-1, updated.indexOf("stale"));
  }

  private static int firstDifferentLine(String a, String b) {
    String[] x = a.split("\n", -1);
    String[] y = b.split("\n", -1);
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      if (!x[i].equals(y[i])) {
        return i + 1;
      }
    }
    return Math.min(x.length, y.length) + 1;
  }
}
