package io.dssync.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Cell evaluation of the kernel, without Jupyter: results, state across cells, failures. */
class JShellKernelTest {
  private static JShellKernel kernel;

  @BeforeAll
  static void start() {
    kernel = JShellKernel.create();
  }

  @AfterAll
  static void stop() {
    kernel.onShutdown(false);
  }

  @Test
  void lastExpressionIsTheCellResultAndStateCarriesOver() {
    assertNull(kernel.evalRaw("int base = 40;\nString unit = \"ms\";"), "declarations show no result");
    assertEquals("42", kernel.evalRaw("int more = base + 1;\nmore + 1"));
    assertEquals("\"42ms\"", kernel.evalRaw("(base + 2) + unit"));
  }

  @Test
  void theLibraryIsOnTheClassPath() {
    assertEquals("\"--group-size\"", kernel.evalRaw("io.dssync.train.TrainerConfig.GROUP_SIZE.flag()"));
  }

  @Test
  void aCellThatDoesNotCompileFailsNamingTheSnippet() {
    JShellKernel.CellFailed e = assertThrows(JShellKernel.CellFailed.class, () -> kernel.evalRaw("int x = \"text\";"));
    assertTrue(e.getMessage().startsWith("Does not compile: int x = \"text\";"), e.getMessage());
  }

  @Test
  void aThrowingCellFailsWithTheExceptionAndStopsThere() {
    JShellKernel.CellFailed e = assertThrows(JShellKernel.CellFailed.class,
        () -> kernel.evalRaw("int reached = 1;\nif (reached == 1) { throw new IllegalStateException(\"boom\"); }\nreached = 2;"));
    assertEquals("java.lang.IllegalStateException: boom", e.getMessage());
    assertEquals("1", kernel.evalRaw("reached"), "snippets after the failing one did not run");
  }

  @Test
  void stoppingARunningCellFailsItAndKeepsTheKernelAndItsVariables() throws Exception {
    kernel.evalRaw("int kept = 7;");
    java.util.concurrent.CompletableFuture<Object> cell = java.util.concurrent.CompletableFuture.supplyAsync(
        () -> kernel.evalRaw("Thread.sleep(600_000);\nkept = 8;"));
    Thread.sleep(1_000); // the cell is sleeping by now
    kernel.interrupt();
    java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
        () -> cell.get(60, java.util.concurrent.TimeUnit.SECONDS));
    // The sleep answers the thread's interrupt: no JShell stop() is needed.
    assertTrue(e.getCause() instanceof JShellKernel.CellFailed && e.getCause().getMessage().startsWith(
        "Interrupted: the cell was stopped at Thread.sleep(600_000);"
            + " (java.lang.InterruptedException: sleep interrupted)"), String.valueOf(e.getCause()));
    assertEquals("7", kernel.evalRaw("kept"), "the snippet after the stopped one did not run");
    assertEquals("2", kernel.evalRaw("1 + 1"));
  }

  @Test
  void aCellThatIgnoresTheInterruptIsStoppedAfterTheGracePeriod() throws Exception {
    java.util.concurrent.CompletableFuture<Object> cell = java.util.concurrent.CompletableFuture.supplyAsync(
        () -> kernel.evalRaw("long spins = 0;\nwhile (true) { spins++; }"));
    Thread.sleep(1_000);
    kernel.interrupt();
    java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
        () -> cell.get(60, java.util.concurrent.TimeUnit.SECONDS));
    assertTrue(e.getCause().getMessage().startsWith("Interrupted: the cell was stopped at while (true)"),
        String.valueOf(e.getCause()));
    assertEquals("2", kernel.evalRaw("1 + 1"));
  }

  @Test
  void anInterruptWithNoCellRunningReturnsAtOnceAndLeavesTheNextCellAlone() {
    kernel.interrupt();
    assertEquals("3", kernel.evalRaw("1 + 2"));
  }
}
