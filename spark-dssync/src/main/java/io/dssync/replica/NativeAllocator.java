package io.dssync.replica;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * glibc settings under which PyTorch's CPU tensors stop costing a page fault per page every step.
 *
 * <p>Why: libtorch allocates every activation and gradient with malloc and frees it within the step.
 * With glibc's defaults, blocks over 128 KiB are mapped and unmapped each time and freed heap tops
 * are trimmed back to the kernel, so the next step faults the same memory in again, page by page.
 * On a virtual machine a fault is expensive: the default CNN step took 2.4x as long (170 against 71
 * ms of compute per step in local[4], a quarter of it in the kernel), and the unequal fault costs
 * between replicas showed up as waiting in every group average. These values keep freed memory in
 * the process (up to 256 MiB per heap) and grow heaps in 64 MiB steps; glibc reads them only from
 * the environment at process start, so they must be set for the JVM before it starts.
 */
public final class NativeAllocator {
  /** The environment variables and values, in the order a shell line lists them. */
  public static final Map<String, String> ENVIRONMENT = settings();

  private NativeAllocator() {}

  private static Map<String, String> settings() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("MALLOC_MMAP_THRESHOLD_", "268435456");
    m.put("MALLOC_TRIM_THRESHOLD_", "268435456");
    m.put("MALLOC_TOP_PAD_", "67108864");
    return java.util.Collections.unmodifiableMap(m);
  }

  /** The settings as a shell prefix: {@code MALLOC_MMAP_THRESHOLD_=... MALLOC_TRIM_THRESHOLD_=...}. */
  public static String shellLine() {
    return ENVIRONMENT.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(" "));
  }

  /** What glibc's defaults cost replicas that train. */
  public static final String REPLICA_COST = "steps can take 2x as long and replicas wait for each other in every"
      + " average";

  /**
   * A warning for a process about to run PyTorch with glibc's defaults, or empty when the
   * environment already tunes malloc (these variables or GLIBC_TUNABLES) or the OS is not Linux.
   *
   * @param where who runs PyTorch, for the message ("this JVM (local[4])", "the executors")
   * @param env the environment those processes get
   * @param cost what the defaults cost there, for the message
   * @param fix how to set the variables there
   */
  public static Optional<String> defaultsWarning(String where, Map<String, String> env, String osName, String cost,
      String fix) {
    if (!osName.toLowerCase(Locale.ROOT).contains("linux") || env.containsKey("GLIBC_TUNABLES")
        || ENVIRONMENT.keySet().stream().anyMatch(env::containsKey)) {
      return Optional.empty();
    }
    return Optional.of(String.format(Locale.ROOT, "PyTorch in %s runs with glibc's default malloc, which returns"
        + " every tensor's memory to the kernel and faults it in again: %s. %s", where, cost, fix));
  }
}
