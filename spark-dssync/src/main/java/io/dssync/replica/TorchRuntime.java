package io.dssync.replica;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.jni.JniUtils;
import io.dssync.errors.Errors;
import io.dssync.errors.ModelErrors;
import java.util.function.Supplier;

/**
 * The PyTorch engine as this JVM's replicas share it: loaded once, offline, with a bounded number
 * of intra-op threads, plus the per-thread settings libtorch keeps in thread-local storage.
 */
final class TorchRuntime {
  static final String ENGINE = "PyTorch";

  private static Engine engine;
  /** Intra-op threads in force; only ever lowered, so no replica runs with more than it asked. */
  private static volatile int threads;
  /** The thread count last applied on each Java thread (MKL and OpenMP settings are per thread). */
  private static final ThreadLocal<Integer> APPLIED = ThreadLocal.withInitial(() -> 0);

  private TorchRuntime() {}

  /** Loads the engine if needed, caps intra-op threads at {@code requested}, and returns a new base manager. */
  static synchronized NDManager newManager(int requested) {
    if (requested < 1) {
      throw Errors.invalidFlag("threadsPerWorker", requested, "must be at least 1",
          "Set it to spark.task.cpus (1 on a shared machine).");
    }
    if (engine == null) {
      // Read by DJL only when the engine first loads, so they must be set before getEngine.
      setIfAbsent("ai.djl.offline", "true");
      setIfAbsent("ai.djl.pytorch.num_threads", Integer.toString(requested));
      setIfAbsent("ai.djl.pytorch.num_interop_threads", "1");
      quietGpuProbe();
      try {
        engine = Engine.getEngine(ENGINE);
      } catch (RuntimeException | UnsatisfiedLinkError e) {
        throw ModelErrors.engineFailure("load the PyTorch engine (pytorch-native-cpu must be on the"
            + " class path; downloads are disabled)", e);
      }
      threads = JniUtils.getNumThreads();
    }
    if (requested < threads) {
      threads = requested;
    }
    return engine.newBaseManager(Device.cpu());
  }

  /** Intra-op threads every replica in this JVM uses. */
  /** The version of libtorch under the engine (the newest PyTorch whose TorchScript files it surely reads). */
  static String libtorchVersion() {
    return ai.djl.engine.Engine.getEngine(ENGINE).getVersion();
  }

  static int threads() {
    return threads;
  }

  /**
   * Applies the thread cap on the calling thread. at::set_num_threads also sets the calling
   * thread's OpenMP and MKL limits, which a thread created by Spark would otherwise take from the
   * machine's core count.
   */
  static void prepareThread() {
    int wanted = threads;
    if (APPLIED.get() != wanted) {
      JniUtils.setNumThreads(wanted);
      APPLIED.set(wanted);
    }
  }

  /**
   * Runs {@code body} with up to {@code n} intra-op threads on the calling thread, then applies the
   * JVM's cap there again. Only for work that runs while no replica of this JVM trains (the driver's
   * evaluation between stages) on cores the caller knows are free: MKL's thread count is not per
   * thread, so replicas training meanwhile could take that many too.
   */
  static <T> T withThreads(int n, Supplier<T> body) {
    int wanted = Math.max(1, n);
    JniUtils.setNumThreads(wanted);
    APPLIED.set(wanted);
    try {
      return body.get();
    } finally {
      prepareThread();
    }
  }

  /**
   * Runs {@code body} with libtorch's grad mode set to {@code enabled} on this thread and restores
   * it after. Grad mode is thread-local in libtorch, which is what lets replicas on different
   * threads record and run backward passes at the same time (unlike DJL's JVM-wide
   * PtGradientCollector). DJL turns it off only on the thread that loaded the engine.
   */
  static <T> T withGradMode(boolean enabled, Supplier<T> body) {
    boolean previous = JniUtils.isGradMode();
    JniUtils.setGradMode(enabled);
    try {
      return body.get();
    } finally {
      JniUtils.setGradMode(previous);
    }
  }

  /**
   * DJL probes for CUDA when the engine loads and logs a WARN on every machine without a usable
   * GPU ("Failed to detect GPU count: CUDA driver version is insufficient"). The engine here is
   * the CPU build, so that warning is noise: raise that one logger to ERROR (when log4j is the
   * logging backend, as in Spark).
   */
  private static void quietGpuProbe() {
    try {
      org.apache.logging.log4j.core.config.Configurator.setLevel("ai.djl.util.cuda.CudaUtils",
          org.apache.logging.log4j.Level.ERROR);
    } catch (LinkageError e) {
      // another logging backend: leave its configuration alone
    }
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
