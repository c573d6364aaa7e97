package io.dssync.notebooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shape of the notebooks (executed for real by jupyter-kernel's NotebooksExecuteTest) and of
 * the Zeppelin notes (Zeppelin cannot run here): valid JSON in each tool's format, the project's
 * API only, no closures that Spark would have to serialize, no job group set by the library user.
 */
class NotebookFilesShapeTest {
  private static final Path NOTEBOOKS = Path.of(System.getProperty("user.dir")).resolve("../notebooks").normalize();
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void jupyterNotebooksAreNbformat4OnTheJavaKernelWithoutClosures() throws IOException {
    List<Path> files = list(NOTEBOOKS, ".ipynb");
    assertEquals(4, files.size(), "quick start, strategy comparison, Spark ML pipeline, your table and network: "
        + files);
    for (Path f : files) {
      JsonNode nb = JSON.readTree(f.toFile());
      assertEquals(4, nb.get("nbformat").asInt(), f.toString());
      assertEquals("dssync-java", nb.at("/metadata/kernelspec/name").asText(), f.toString());
      String code = code(nb.get("cells"), "code");
      assertFalse(code.contains("->"), f + " defines a lambda; notebook closures do not serialize");
      assertTrue(code.contains("io.dssync."), f + " should call the library");
      assertTrue(code.contains(".master(\"local[") && code.contains("\"spark.driver.host\", \"127.0.0.1\""),
          f + " must create its own local SparkSession bound to 127.0.0.1");
      assertTrue(code.trim().endsWith("spark.stop();"), f + " should stop its session last");
    }
  }

  @Test
  void zeppelinNotesHaveParagraphsWithInterpretersAndNoClosuresOrJobGroups() throws IOException {
    List<Path> files = list(NOTEBOOKS.resolve("zeppelin"), ".zpln");
    assertEquals(3, files.size(), files.toString());
    Set<String> ids = new HashSet<>();
    for (Path f : files) {
      JsonNode note = JSON.readTree(f.toFile());
      assertTrue(note.get("name").asText().startsWith("dssync/"), f.toString());
      assertTrue(ids.add(note.get("id").asText()), "duplicate note id in " + f);
      JsonNode paragraphs = note.get("paragraphs");
      assertTrue(paragraphs.isArray() && paragraphs.size() >= 3, f.toString());
      StringBuilder spark = new StringBuilder();
      for (JsonNode p : paragraphs) {
        String text = p.get("text").asText();
        assertTrue(text.startsWith("%spark\n") || text.startsWith("%md\n"), f + ": " + text);
        assertTrue(ids.add(p.get("id").asText()), "duplicate paragraph id in " + f);
        if (text.startsWith("%spark")) {
          spark.append(text).append('\n');
        }
      }
      String code = spark.toString();
      assertTrue(code.contains("io.dssync."), f.toString());
      assertFalse(code.contains("=>"), f + " defines a closure; it would not serialize");
      assertFalse(code.contains("setJobGroup"), f + ": Zeppelin owns the job group");
    }
  }

  private static String code(JsonNode cells, String type) {
    StringBuilder sb = new StringBuilder();
    for (JsonNode c : cells) {
      if (type.equals(c.get("cell_type").asText())) {
        c.get("source").forEach(line -> sb.append(line.asText()));
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  private static List<Path> list(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
    }
  }
}
