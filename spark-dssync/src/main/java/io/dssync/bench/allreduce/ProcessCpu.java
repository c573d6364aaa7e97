package io.dssync.bench.allreduce;

import java.lang.management.ManagementFactory;

/** CPU time of this JVM process (all threads), to tell CPU-bound from starved or network-bound. */
final class ProcessCpu {
  private ProcessCpu() {}

  /** Process CPU nanoseconds so far, or 0 where the JVM does not report it. */
  static long nanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return Math.max(0, os.getProcessCpuTime());
    }
    return 0;
  }
}
