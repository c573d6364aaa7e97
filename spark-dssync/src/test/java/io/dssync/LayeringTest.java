package io.dssync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package arrows of DESIGN.md section 3, checked by scanning main sources for references
 * ({@code import} lines and fully qualified names, comments and strings left out): a reference
 * from one top-level package of io.dssync to another must be an allowed arrow. Subpackages
 * ({@code data.fetch}) count as their top-level package. Also: Spark's internals (its environment, RPC,
 * scheduler, internal configuration and deploy classes) only in spark, the network and block-storage
 * libraries only there and in transport (the data plane is built on them), and errors, config, schedule and
 * collective free of Spark, Scala and DJL.
 */
class LayeringTest {
  /** The main sources of the library and of the core module beside it (which the compiler keeps free of engines). */
  private static final List<Path> MAIN =
      List.of(Path.of("src/main/java/io/dssync"), Path.of("../spark-dssync-core/src/main/java/io/dssync"));

  /** Which packages each package may use, besides itself, errors and config (which every package may use). */
  static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
      Map.entry("errors", Set.of()),
      // The processes' settings (data plane, environment): typed values and their errors.
      Map.entry("config", Set.of()),
      Map.entry("schedule", Set.of()),
      Map.entry("collective", Set.of()),
      // Spark's internals, in one place; it uses none of ours.
      Map.entry("spark", Set.of()),
      Map.entry("transport", Set.of("collective", "spark")),
      Map.entry("models", Set.of("spark")),
      // A replica checks labels by data's Labels rule (class indices, or real values of a width).
      Map.entry("replica", Set.of("models", "data")),
      Map.entry("data", Set.of("spark")),
      Map.entry("metrics", Set.of()),
      Map.entry("train",
          Set.of("collective", "transport", "spark", "replica", "models", "data", "schedule", "metrics")),
      Map.entry("ml", Set.of("train", "collective", "transport", "replica", "models", "data", "schedule", "metrics")),
      // What starting a training from a command line needs, shared by cli and bench: the flag
      // parser, the run flags (--master, --train-limit, ...) and the SparkSession (which first asks a
      // standalone master, through transport's MasterProbe, whether it accepts the application, and
      // gives executors replica's NativeAllocator settings). It sits beside cli and bench, above train.
      Map.entry("launch", Set.of("train", "data", "spark", "replica")),
      Map.entry("bench",
          Set.of("launch", "train", "collective", "transport", "spark", "replica", "models", "data", "schedule",
              "metrics")),
      // cli runs the benchmarks ('dssync bench'), so it stands on bench; bench never uses cli. It saves a
      // trained model as ml's model directory (--save-model).
      Map.entry("cli", Set.of("bench", "launch", "ml", "train", "collective", "transport", "spark", "replica",
          "models", "data", "schedule", "metrics")));

  /** Packages every package may use. */
  static final Set<String> EVERYONE_USES = Set.of("errors", "config");

  /** Packages that must not touch Spark, Scala or DJL at all. */
  static final Set<String> PURE = Set.of("errors", "config", "schedule", "collective");

  private static final Pattern OURS = Pattern.compile("\\bio\\.dssync\\.([a-z]+)\\b");
  /** Spark's network and block-storage libraries: in spark, and in transport, the data plane built on them. */
  private static final Pattern SPARK_NETWORK =
      Pattern.compile("\\borg\\.apache\\.spark\\.(network\\.[\\w.]+|storage\\.(?!StorageLevel\\b)\\w+)");
  /** The rest of Spark's internals: in spark only. */
  private static final Pattern SPARK_INTERNALS = Pattern.compile(
      "\\borg\\.apache\\.spark\\.(SparkEnv\\b|(rpc|scheduler|internal|deploy)\\.[\\w.$]+)");
  private static final Pattern ENGINES = Pattern.compile("\\b(org\\.apache\\.spark|scala|ai\\.djl)\\.\\w+");

  @Test
  void everyArrowBetweenPackagesPointsTheWayDesignMdSays() {
    List<String> wrong = new ArrayList<>();
    for (Path file : mainSources()) {
      wrong.addAll(violations(packageOf(file), rootOf(file).relativize(file).toString(), read(file)));
    }
    assertTrue(wrong.isEmpty(), "Package arrows against DESIGN.md section 3:\n  " + String.join("\n  ", wrong));
  }

  @Test
  void everyPackageHasARule() {
    Set<String> packages = new LinkedHashSet<>();
    mainSources().forEach(f -> packages.add(packageOf(f)));
    packages.removeAll(ALLOWED.keySet());
    assertEquals(Set.of(), packages, "add the new package to ALLOWED (and to DESIGN.md section 3)");
  }

  @Test
  void theEnginelessPackagesAreTheCoreModuleWhoseBuildHasNoSparkScalaOrDjl() {
    Set<String> core = new LinkedHashSet<>();
    Set<String> library = new LinkedHashSet<>();
    for (Path file : mainSources()) {
      (rootOf(file).equals(MAIN.get(1)) ? core : library).add(packageOf(file));
    }
    assertEquals(PURE, core, "the packages of spark-dssync-core");
    library.retainAll(PURE);
    assertEquals(Set.of(), library, "engine-free packages in the library, where the compiler cannot keep them so");
  }

  /** The scanner itself: a wrong arrow, a Spark internal and a pure package using Spark are all caught. */
  @Test
  void theScanCatchesWrongArrowsAndIgnoresComments() {
    String source = "package io.dssync.metrics;\n"
        + "import io.dssync.train.TrainerConfig; // wrong way\n"
        + "/** See {@link io.dssync.cli.Main}: a comment, not an arrow. */\n"
        + "class X { String s = \"io.dssync.bench\"; io.dssync.errors.Errors e; }\n";
    assertEquals(List.of("X.java: metrics -> train (io.dssync.train)"), violations("metrics", "X.java", source));
    assertEquals(List.of("Y.java: Spark's network or storage internals outside spark and transport"
        + " (org.apache.spark.storage.BlockId)"), violations("train", "Y.java",
            "import org.apache.spark.storage.BlockId;\nimport org.apache.spark.storage.StorageLevel;\n"));
    assertEquals(List.of("W.java: Spark internals outside spark (org.apache.spark.SparkEnv)",
        "W.java: Spark internals outside spark (org.apache.spark.scheduler.SparkListener)"),
        violations("transport", "W.java", "import org.apache.spark.SparkEnv;\n"
            + "class W { org.apache.spark.scheduler.SparkListener l; org.apache.spark.SparkEnvironment e; }\n"));
    assertEquals(List.of(), violations("spark", "V.java", "import org.apache.spark.SparkEnv;\n"));
    assertEquals(List.of("Z.java: schedule uses Spark, Scala or DJL (org.apache.spark.SparkConf)"),
        violations("schedule", "Z.java", "import org.apache.spark.SparkConf;\n"));
    assertEquals(List.of("C.java: config -> transport (io.dssync.transport)",
        "C.java: config uses Spark, Scala or DJL (org.apache.spark.SparkConf)"),
        violations("config", "C.java",
            "import io.dssync.transport.PushTransport;\nimport org.apache.spark.SparkConf;\n"));
    assertEquals(List.of(), violations("bench", "P.java", "import io.dssync.config.ProcessSettings;\n"));
  }

  static List<String> violations(String from, String where, String source) {
    String code = withoutCommentsAndStrings(source);
    Set<String> found = new LinkedHashSet<>();
    Matcher m = OURS.matcher(code);
    while (m.find()) {
      String to = m.group(1);
      if (!to.equals(from) && !EVERYONE_USES.contains(to) && !ALLOWED.getOrDefault(from, Set.of()).contains(to)) {
        found.add(where + ": " + from + " -> " + to + " (io.dssync." + to + ")");
      }
    }
    if (!from.equals("transport") && !from.equals("spark")) {
      Matcher s = SPARK_NETWORK.matcher(code);
      while (s.find()) {
        found.add(where + ": Spark's network or storage internals outside spark and transport (" + s.group() + ")");
      }
    }
    if (!from.equals("spark")) {
      Matcher s = SPARK_INTERNALS.matcher(code);
      while (s.find()) {
        found.add(where + ": Spark internals outside spark (" + s.group() + ")");
      }
    }
    if (PURE.contains(from)) {
      Matcher e = ENGINES.matcher(code);
      while (e.find()) {
        found.add(where + ": " + from + " uses Spark, Scala or DJL (" + e.group() + ")");
      }
    }
    return new ArrayList<>(found);
  }

  /** Source text with comments and string literals blanked, so only code counts as a reference. */
  static String withoutCommentsAndStrings(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int i = 0;
    while (i < source.length()) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        int end = source.indexOf('\n', i);
        i = end < 0 ? source.length() : end;
      } else if (source.startsWith("/*", i)) {
        int end = source.indexOf("*/", i + 2);
        i = end < 0 ? source.length() : end + 2;
        out.append(' ');
      } else if (source.startsWith("\"\"\"", i)) { // a text block
        int end = source.indexOf("\"\"\"", i + 3);
        i = end < 0 ? source.length() : end + 3;
        out.append("\"\"");
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < source.length() && source.charAt(j) != c) {
          j += source.charAt(j) == '\\' ? 2 : 1;
        }
        i = j + 1;
        out.append(c).append(c);
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private static List<Path> mainSources() {
    List<Path> sources = new ArrayList<>();
    for (Path root : MAIN) {
      try (Stream<Path> files = Files.walk(root)) {
        List<Path> found = files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        assertTrue(found.size() > 20, "main sources found under " + root.toAbsolutePath());
        sources.addAll(found);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return sources;
  }

  private static Path rootOf(Path file) {
    return MAIN.stream().filter(file::startsWith).findFirst().orElseThrow();
  }

  /** The top-level package under io.dssync of {@code file}: data/fetch/X.java -> data. */
  private static String packageOf(Path file) {
    return rootOf(file).relativize(file).getName(0).toString();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
