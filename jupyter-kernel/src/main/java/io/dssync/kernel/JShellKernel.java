package io.dssync.kernel;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jshell.Diag;
import jdk.jshell.EvalException;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.UnresolvedReferenceException;
import org.dflib.jjava.jupyter.kernel.BaseKernel;
import org.dflib.jjava.jupyter.kernel.BaseKernelBuilder;
import org.dflib.jjava.jupyter.kernel.JupyterIO;
import org.dflib.jjava.jupyter.kernel.comm.CommManager;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.dflib.jjava.jupyter.kernel.history.HistoryManager;
import org.dflib.jjava.jupyter.kernel.magic.MagicsRegistry;
import org.dflib.jjava.jupyter.kernel.util.StringStyler;
import org.dflib.jjava.jupyter.kernel.LanguageInfo;
import org.dflib.jjava.jupyter.kernel.ReplacementOptions;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;

/**
 * A minimal Java kernel: each cell is split into JShell snippets and evaluated in this JVM
 * ("local" execution engine), so Spark sessions and models live across cells and output goes to
 * the notebook. A cell fails (and {@code nbconvert --execute} with it) on the first snippet that
 * does not compile or throws. The last expression's value is the cell's result. No completion or
 * inspection: this kernel exists to run the project's notebooks in CI; users may prefer the full
 * JJava kernel.
 */
public final class JShellKernel extends BaseKernel {
  private final JShell shell;
  /** Set by {@link #interrupt}: the running cell ends as failed, and its remaining snippets do not run. */
  private volatile boolean stopped;
  private volatile boolean cellRunning;
  /** Released when a cell ends, so {@link #interrupt} knows whether the gentle stop sufficed. */
  private final Semaphore cellEnded = new Semaphore(0);
  /** How long a cell may take to end after its thread was interrupted before JShell's stop() ends it. */
  static final long GRACE_MS = 10_000;

  private JShellKernel(String name, String version, HistoryManager history, JupyterIO io, CommManager comms,
      Renderer renderer, MagicsRegistry magics, StringStyler errorStyler) {
    super(name, version,
        new LanguageInfo("java", System.getProperty("java.version"), "text/x-java", ".jshell",
            "java", "java", null),
        List.of(), history, io, comms, renderer, null, magics, false, errorStyler);
    JShell.Builder shellBuilder = JShell.builder().executionEngine("local");
    this.shell = shellBuilder.build();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!entry.isBlank()) {
        shell.addToClasspath(entry);
      }
    }
  }

  /**
   * Jupyter's stop button (an interrupt_request: kernel.json sets interrupt_mode "message", since a
   * SIGINT would end this JVM and every session in it) stops the running cell, keeping the kernel.
   * First gently: the thread running the snippet is interrupted, which a sleep, a wait or a fit
   * (it cancels its Spark job) answer by ending. Only a cell still running after
   * {@link #GRACE_MS} is stopped with JShell's stop(), which throws ThreadDeath into every thread the
   * cell started too.
   */
  @Override
  public void interrupt() {
    if (!cellRunning) {
      return;
    }
    stopped = true;
    Thread.getAllStackTraces().forEach((thread, stack) -> {
      if (runsSnippet(stack)) {
        thread.interrupt();
      }
    });
    try {
      if (!cellEnded.tryAcquire(GRACE_MS, TimeUnit.MILLISECONDS)) {
        shell.stop();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      shell.stop();
    }
  }

  /** Whether a thread with this stack runs a snippet: JShell's local engine invokes it from its own frames. */
  private static boolean runsSnippet(StackTraceElement[] stack) {
    for (StackTraceElement frame : stack) {
      if (frame.getClassName().startsWith("jdk.jshell.execution.LocalExecutionControl")
          && frame.getMethodName().startsWith("lambda$")) {
        return true;
      }
    }
    return false;
  }

  static JShellKernel create() {
    return new Builder().name("dssync-java").version("0.1").build();
  }

  @Override
  public Object evalRaw(String code) {
    SourceCodeAnalysis analysis = shell.sourceCodeAnalysis();
    String remaining = code;
    Object last = null;
    stopped = false;
    cellEnded.drainPermits();
    cellRunning = true;
    try {
      while (!remaining.isBlank()) {
        SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(remaining);
        if (info.completeness() == SourceCodeAnalysis.Completeness.EMPTY) {
          break;
        }
        String source = info.completeness().isComplete() ? info.source() : remaining;
        remaining = info.completeness().isComplete() ? info.remaining() : "";
        try {
          last = evalSnippet(source);
        } catch (CellFailed e) {
          throw stopped ? interrupted(source, e.getMessage()) : e;
        }
        if (stopped) {
          throw interrupted(source, null);
        }
      }
      return last;
    } finally {
      cellRunning = false;
      cellEnded.release();
    }
  }

  private static CellFailed interrupted(String source, String how) {
    return new CellFailed("Interrupted: the cell was stopped at " + source.strip().lines().findFirst().orElse("")
        + (how == null ? "" : " (" + how + ")") + "; the kernel and the variables defined so far are kept.");
  }

  private Object evalSnippet(String source) {
    Object value = null;
    for (SnippetEvent event : shell.eval(source)) {
      if (event.status() == Snippet.Status.REJECTED) {
        String diagnostics = shell.diagnostics(event.snippet()).map(Diag::toString)
            .map(d -> d.replaceAll("\\s+", " ")).collect(Collectors.joining("; "));
        throw new CellFailed("Does not compile: " + source.strip() + "\n" + diagnostics);
      }
      if (event.exception() instanceof UnresolvedReferenceException u) {
        throw new CellFailed("Unresolved reference in: " + u.getSnippet().source().strip());
      }
      if (event.exception() instanceof EvalException e) {
        CellFailed failure = new CellFailed(e.getExceptionClassName() + ": " + e.getMessage());
        failure.setStackTrace(e.getStackTrace());
        throw failure;
      }
      if (event.exception() != null) {
        throw new CellFailed(event.exception().toString());
      }
      // A bare expression (JShell wraps it in a temporary variable such as $1) is the cell's result.
      boolean expression = event.snippet().kind() == Snippet.Kind.EXPRESSION
          || event.snippet().subKind() == Snippet.SubKind.TEMP_VAR_EXPRESSION_SUBKIND;
      if (event.value() != null && expression) {
        value = event.value();
      }
    }
    return value;
  }

  @Override
  public DisplayData inspect(String code, int at, boolean extraDetail) {
    return null;
  }

  @Override
  public ReplacementOptions complete(String code, int at) {
    return null;
  }

  @Override
  public String isComplete(String code) {
    SourceCodeAnalysis.Completeness c = shell.sourceCodeAnalysis().analyzeCompletion(code).completeness();
    return c.isComplete() || c == SourceCodeAnalysis.Completeness.EMPTY ? IS_COMPLETE_YES : IS_COMPLETE_MAYBE;
  }

  @Override
  public List<String> formatError(Throwable e) {
    List<String> lines = new ArrayList<>();
    lines.add(e.getMessage());
    for (StackTraceElement el : e.getStackTrace()) {
      lines.add("    at " + el);
    }
    return lines;
  }

  @Override
  public void onShutdown(boolean isRestarting) {
    shell.close();
  }

  /** A cell that did not compile or threw. */
  static final class CellFailed extends RuntimeException {
    CellFailed(String message) {
      super(message);
    }
  }

  private static final class Builder extends BaseKernelBuilder<Builder, JShellKernel> {
    @Override
    public JShellKernel build() {
      return new JShellKernel(buildName(), buildVersion(), buildHistoryManager(),
          buildJupyterIO(buildJupyterIOEncoding()), buildCommManager(), buildRenderer(),
          buildMagicsRegistry(), buildErrorStyler());
    }
  }
}
