package io.dssync.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Every {@code ```java} block of README.md and docs/ (docs/performance/ aside: the lab's record)
 * compiles against the project, so the examples cannot fall behind the API.
 *
 * <p>The convention, also written in docs/README.md: a block that declares a type ({@code class},
 * {@code interface}, {@code record}, {@code enum} at the start of a line) is a whole source file; any
 * other block is statements, which the test puts in a method. Its leading {@code import} lines are
 * kept as imports, and a comment line {@code // given: SparkSession spark, Dataset<Row> train} names
 * the variables the statements use, which become the method's parameters. Every block also gets the
 * imports in {@link #IMPORTS}.
 */
class DocSnippetsCompileTest {
  static final List<String> IMPORTS = List.of("io.dssync.data.*", "io.dssync.errors.*", "io.dssync.metrics.*",
      "io.dssync.ml.*", "io.dssync.train.*", "java.util.*", "org.apache.spark.ml.*", "org.apache.spark.ml.feature.*",
      "org.apache.spark.sql.*");
  private static final Pattern FENCE = Pattern.compile("^\\s*```");
  private static final Pattern TYPE = Pattern.compile(
      "^(public |final |abstract |sealed )*(class|interface|record|enum) (\\w+)", Pattern.MULTILINE);
  private static final Pattern GIVEN = Pattern.compile("^\\s*//\\s*given:\\s*(.*)$");

  /** One block: where it is, its text, and the source it becomes. */
  record Snippet(String file, int firstLine, List<String> lines) {
    String className() {
      return "Snippet_" + file.replaceAll("[^A-Za-z0-9]", "_") + "_" + firstLine;
    }

    /** The source file and the line of it where the block's first line lands. */
    Source source() {
      String text = String.join("\n", lines);
      StringBuilder sb = new StringBuilder();
      IMPORTS.forEach(i -> sb.append("import ").append(i).append(";\n"));
      Matcher type = TYPE.matcher(text);
      if (type.find()) {
        return new Source(type.group(3), sb + text + "\n", IMPORTS.size() + 1);
      }
      List<String> params = new ArrayList<>();
      List<String> body = new ArrayList<>();
      int bodyStart = -1;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        Matcher given = GIVEN.matcher(line);
        if (bodyStart < 0 && line.startsWith("import ")) {
          sb.append(line).append('\n');
        } else if (bodyStart < 0 && given.matches()) {
          params.add(given.group(1).trim());
        } else {
          bodyStart = bodyStart < 0 ? i : bodyStart;
          body.add(line);
        }
      }
      // Keep the block's own line numbers: blank lines stand for what moved to the header.
      int header = sb.toString().split("\n", -1).length - 1;
      sb.append("class ").append(className()).append(" {\n  void run(").append(String.join(", ", params))
          .append(") throws Exception {\n");
      int first = header + 3;
      for (int i = 0; i < Math.max(bodyStart, 0); i++) {
        sb.append('\n');
      }
      body.forEach(l -> sb.append(l).append('\n'));
      return new Source(className(), sb.append("  }\n}\n").toString(), first);
    }
  }

  /** A source file named after its class; the block's first line is at {@code firstLine} of it. */
  record Source(String className, String text, int firstLine) {}

  @Test
  void everyJavaBlockInTheDocsCompiles() throws IOException {
    Path root = RepoFiles.root();
    List<Snippet> snippets = snippets(root);
    assertTrue(snippets.size() >= 3, "expected the README's and docs' Java examples, found " + snippets.size());
    List<String> problems = compile(snippets);
    if (!problems.isEmpty()) {
      fail("Java examples in the docs do not compile (see DocSnippetsCompileTest for the convention):\n"
          + String.join("\n", problems));
    }
  }

  @Test
  void aBrokenBlockFailsNamingItsFileAndLine() {
    Snippet broken = new Snippet("docs/example.md", 10, List.of("// given: SparkSession spark",
        "TrainerConfig config = TrainerConfig.builder().build();", "config.noSuchMethod();"));
    List<String> problems = compile(List.of(broken));
    assertTrue(problems.size() == 1 && problems.get(0).startsWith("docs/example.md:12: "), problems.toString());
  }

  static List<Snippet> snippets(Path root) throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md") && !root.relativize(p).startsWith("docs/performance"))
          .sorted().forEach(pages::add);
    }
    List<Snippet> out = new ArrayList<>();
    for (Path page : pages) {
      List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
      String name = root.relativize(page).toString();
      for (int i = 0; i < lines.size(); i++) {
        if (FENCE.matcher(lines.get(i)).find() && lines.get(i).trim().equals("```java")) {
          int start = i + 1;
          int end = start;
          while (end < lines.size() && !FENCE.matcher(lines.get(end)).find()) {
            end++;
          }
          out.add(new Snippet(name, start + 1, lines.subList(start, end)));
          i = end;
        } else if (FENCE.matcher(lines.get(i)).find()) {
          // skip other fenced blocks whole, so a ``` inside them is not read as an opening
          i++;
          while (i < lines.size() && !FENCE.matcher(lines.get(i)).find()) {
            i++;
          }
        }
      }
    }
    return out;
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover folder in the build's temporary directory is harmless
    }
  }

  /** Compiles every snippet; one line per error, as FILE:LINE: message. */
  static List<String> compile(List<Snippet> snippets) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    List<JavaFileObject> units = new ArrayList<>();
    List<Snippet> owners = new ArrayList<>();
    List<Source> sources = new ArrayList<>();
    for (Snippet s : snippets) {
      Source source = s.source();
      String pkg = "docsnippets." + s.className().toLowerCase(Locale.ROOT);
      String text = "package " + pkg + ";\n" + source.text();
      units.add(new SimpleJavaFileObject(URI.create("string:///" + pkg.replace('.', '/') + "/" + source.className()
          + ".java"), JavaFileObject.Kind.SOURCE) {
        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
          return text;
        }
      });
      owners.add(s);
      sources.add(source);
    }
    Path out;
    try {
      out = Files.createTempDirectory("doc-snippets");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString(),
          "-proc:none", "-Xlint:none", "-nowarn");
      javac.getTask(null, files, diagnostics, options, null, units).call();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      deleteTree(out);
    }
    List<String> problems = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() != Diagnostic.Kind.ERROR) {
        continue;
      }
      int i = units.indexOf(d.getSource());
      if (i < 0) {
        problems.add("(no snippet): " + d.getMessage(Locale.ROOT));
        continue;
      }
      // +1 for the package line put above the source
      long line = owners.get(i).firstLine() + d.getLineNumber() - 1 - sources.get(i).firstLine();
      problems.add(owners.get(i).file() + ":" + line + ": " + d.getMessage(Locale.ROOT).replace('\n', ' '));
    }
    return problems;
  }
}
