package io.dssync.notebooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Executes every notebook in {@code notebooks/} headless with Debian's Jupyter
 * ({@code jupyter nbconvert --to notebook --execute}) on this module's Java kernel; a cell error
 * fails nbconvert and the test. The kernel spec lives in the build folder (JUPYTER_DATA_DIR), its
 * JVM gets Spark's module flags and this test's class path. Skipped, with the reason printed,
 * only where Jupyter is not installed (CI installs it).
 *
 * <p>Tagged {@code cluster}: five kernel JVMs, each notebook with its own Spark session and
 * training, take about 5 minutes on 2 cores, so {@code mvn test} leaves this class out and
 * {@code .ci/run} runs it under {@code -Pclusters} after {@code mvn test}. The kernel's cell
 * evaluation without Jupyter stays in {@code mvn test} (JShellKernelTest).
 */
@Tag("cluster")
class NotebooksExecuteTest {
  private static final String KERNEL = "dssync-java";
  private static final long CELL_TIMEOUT_S = 600;
  private static final long NOTEBOOK_DEADLINE_S = 900;

  private static String jupyter;
  private static Path build;

  @BeforeAll
  static void findJupyter() throws IOException {
    build = Path.of(System.getProperty("dssync.buildDir")).toAbsolutePath();
    jupyter = JupyterLocator.find();
    if (jupyter == null) {
      String reason = "Jupyter (Debian's jupyter-nbconvert) is not installed; notebooks not executed."
          + " Install: apt-get install -y --no-install-recommends jupyter-nbconvert python3-nbclient"
          + " jupyter-client python3-ipykernel python3-notebook jupyter-notebook";
      System.out.println("[NotebooksExecuteTest] SKIPPED: " + reason);
      Assumptions.abort(reason);
    }
    writeKernelSpec();
  }

  @TestFactory
  Stream<DynamicTest> everyNotebookRunsWithoutACellError() throws IOException {
    Path notebooks = Path.of(System.getProperty("dssync.notebooksDir")).toAbsolutePath().normalize();
    List<Path> files;
    try (Stream<Path> s = Files.list(notebooks)) {
      files = s.filter(p -> p.toString().endsWith(".ipynb")).sorted().toList();
    }
    assertTrue(files.size() >= 4, "expected the four notebooks in " + notebooks + ", found " + files);
    // One notebook while working on it: -Ddssync.notebooks=04-your-table (a part of the file name).
    String only = System.getProperty("dssync.notebooks", "");
    if (!only.isBlank()) {
      files = files.stream().filter(p -> p.getFileName().toString().contains(only.trim())).toList();
      assertTrue(!files.isEmpty(), "no notebook in " + notebooks + " has '" + only + "' in its name");
    }
    return files.stream().map(nb -> DynamicTest.dynamicTest(nb.getFileName().toString(), () -> {
      Run run = execute(nb);
      assertEquals(0, run.exitCode, nb.getFileName() + " failed under nbconvert:\n" + run.output);
      String executed = Files.readString(run.executed);
      assertTrue(!executed.contains("\"output_type\": \"error\""), "error output in " + run.executed);
      int cells = count(executed, "\"cell_type\": \"code\"");
      int outputs = count(executed, "\"output_type\": \"(stream|execute_result|display_data)\"");
      System.out.printf("[notebooks] %s: %d code cells executed, %d outputs, exit %d, %.1f s%n",
          nb.getFileName(), cells, outputs, run.exitCode, run.seconds);
    }));
  }

  @Test
  void aThrowingCellFailsTheHeadlessRun() throws IOException {
    Path nb = build.resolve("notebook-fixtures/throwing.ipynb");
    Files.createDirectories(nb.getParent());
    Files.writeString(nb, NotebookJson.of(KERNEL,
        "int answer = 6 * 7;",
        "if (answer == 42) { throw new IllegalStateException(\"cell failed on purpose\"); }",
        "System.out.println(\"never reached\");"));
    Run run = execute(nb);
    assertNotEquals(0, run.exitCode, "nbconvert must fail on a throwing cell:\n" + run.output);
    assertTrue(run.output.contains("cell failed on purpose"), run.output);
  }

  private record Run(int exitCode, String output, Path executed, double seconds) {}

  private static Run execute(Path notebook) throws IOException {
    Path workDir = build.resolve("notebooks-run");
    Files.createDirectories(workDir);
    // Run a copy inside the build folder: the kernel's working directory is the notebook's folder,
    // and the notebooks write metrics, reports and saved models relative to it.
    Path copy = workDir.resolve(notebook.getFileName());
    if (!copy.equals(notebook)) {
      Files.copy(notebook, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    notebook = copy;
    String name = notebook.getFileName().toString().replace(".ipynb", "");
    Path executed = workDir.resolve(name + ".executed.ipynb");
    Files.deleteIfExists(executed);
    ProcessBuilder pb = new ProcessBuilder(jupyter, "nbconvert", "--to", "notebook", "--execute",
        "--ExecutePreprocessor.timeout=" + CELL_TIMEOUT_S,
        "--ExecutePreprocessor.kernel_name=" + KERNEL,
        "--output-dir=" + workDir, "--output=" + name + ".executed", notebook.toString())
        .directory(workDir.toFile())
        .redirectErrorStream(true);
    jupyterEnvironment(pb.environment());
    long start = System.nanoTime();
    Process p = pb.start();
    Path log = workDir.resolve(name + ".nbconvert.log");
    // Drain output on this thread into a file, so a chatty kernel never blocks on a full pipe.
    Thread drain = new Thread(() -> {
      try {
        Files.copy(p.getInputStream(), log, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException ignored) {
        // the exit code and the partial log still tell what happened
      }
    });
    drain.start();
    try {
      if (!p.waitFor(NOTEBOOK_DEADLINE_S, TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new AssertionError("nbconvert did not finish " + notebook.getFileName() + " within "
            + NOTEBOOK_DEADLINE_S + " s; see " + log);
      }
      drain.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while running " + notebook, e);
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    return new Run(p.exitValue(), output, executed, (System.nanoTime() - start) / 1e9);
  }

  /** Everything Jupyter writes stays inside the build folder. */
  private static void jupyterEnvironment(Map<String, String> env) {
    env.put("JUPYTER_DATA_DIR", build.resolve("jupyter/data").toString());
    env.put("JUPYTER_CONFIG_DIR", build.resolve("jupyter/config").toString());
    env.put("JUPYTER_RUNTIME_DIR", build.resolve("jupyter/runtime").toString());
    env.put("IPYTHONDIR", build.resolve("jupyter/ipython").toString());
    env.put("JUPYTER_PLATFORM_DIRS", "1");
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
  }

  /** kernel.json: this JVM's java, Spark's module flags, the test class path (kernel + library). */
  private static void writeKernelSpec() throws IOException {
    Path dir = build.resolve("jupyter/data/kernels/" + KERNEL);
    Files.createDirectories(dir);
    List<String> argv = new ArrayList<>();
    argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String flag : System.getProperty("dssync.javaFlags").trim().split("\\s+")) {
      argv.add(flag);
    }
    argv.addAll(List.of("-Xmx2g", "-Dai.djl.offline=true", "-Djava.awt.headless=true",
        "-Dlog4j2.configurationFile=" + Path.of(System.getProperty("dssync.log4jConfig")).toAbsolutePath().normalize(),
        "-Djava.io.tmpdir=" + build, "-cp", classPath(), "io.dssync.kernel.KernelMain", "{connection_file}"));
    Files.writeString(dir.resolve("kernel.json"), NotebookJson.kernelSpec(argv, "Java (dssync)"));
  }

  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return String.join(File.pathSeparator, cp.split(File.pathSeparator));
  }

  private static int count(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
