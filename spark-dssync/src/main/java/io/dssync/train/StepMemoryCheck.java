package io.dssync.train;

import io.dssync.errors.Errors;
import io.dssync.replica.StepFootprint;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.SparkConf;

/**
 * Refuses a fit whose replicas' training steps need more memory at once than a host running them
 * has left, before any of them trains: the kernel would end the JVM (exit 137; in a notebook the
 * kernel dies) with no word of why. Under {@code local[N]} the driver checks its own host before the
 * first stage (the replicas are its threads); under any other master each rank of the fit's first
 * stage checks its host for the ranks there, reading that host's memory and cgroup (so YARN and
 * Kubernetes containers count). On YARN and Kubernetes, whose containers limit an executor's memory
 * outside the heap to its overhead, the driver also warns when the steps of an executor's replicas
 * may not fit there.
 *
 * <p>The refusal counts only what a step holds at its peak (its forward tensors; views, such as the
 * MLP's flattened input, count twice), so it does not turn away a fit that would run; the warning
 * and the batch suggested count what a replica may need at most: its step's estimated peak and
 * {@link #RUNTIME_BYTES_PER_REPLICA}.
 */
final class StepMemoryCheck {
  /**
   * What a replica needs besides its step's tensors: libtorch's own buffers, the allocator's arenas
   * under the malloc settings, the JVM's growth after the check: measured in memory cgroups (peak usage,
   * {@code ./dssync train --train-limit 20000}, local[4]) as 200-260 MB a replica beyond 1.33-1.6x the
   * forward tensors (figures in docs/performance/journal.md).
   */
  static final long RUNTIME_BYTES_PER_REPLICA = 256L << 20;
  /** Needs above this share of the available memory start with a warning; suggested batches stay within it. */
  static final double WARN_SHARE = 0.9;

  private StepMemoryCheck() {}

  /**
   * The check of the rank on {@code hostOfRank[rank]} for the ranks of its host (all of them under
   * local-cluster and on a one-machine cluster); the warning, if any, goes to the executor's log.
   */
  static Optional<String> requireOnHost(String model, int batch, StepFootprint footprint, String[] hostOfRank,
      int rank, long availableBytes) {
    String host = hostOfRank[rank];
    int replicas = (int) Arrays.stream(hostOfRank).filter(host::equals).count();
    return require(model, replicas, batch, footprint, availableBytes, "executor host " + host);
  }

  /**
   * Throws a {@code --batch-size} error, naming the sizes and a batch that fits, when {@code replicas}
   * steps of {@code batch} examples hold more than {@code availableBytes} by their forward tensors
   * alone; returns a warning, with the same batch, when what they may need exceeds
   * {@link #WARN_SHARE} of it.
   */
  static Optional<String> require(String model, int replicas, int batch, StepFootprint footprint,
      long availableBytes) {
    return require(model, replicas, batch, footprint, availableBytes, "this host");
  }

  private static Optional<String> require(String model, int replicas, int batch, StepFootprint footprint,
      long availableBytes, String host) {
    long held = replicas * footprint.heldBytes(batch);
    long largest = footprint.largestBatchWithin((long) (WARN_SHARE * availableBytes / replicas)
        - RUNTIME_BYTES_PER_REPLICA);
    String fix = largest >= 1
        ? String.format(Locale.ROOT, "use --batch-size %d or less (the batch is per worker), fewer --workers, or"
            + " hosts with more memory.", largest)
        : "use fewer --workers or a smaller model: not even one example per replica fits.";
    if (held > availableBytes) {
      throw Errors.invalidFlag(TrainerConfig.BATCH_SIZE.name(), batch, String.format(Locale.ROOT, "a training step"
          + " of model %s at this batch holds %s of tensors per replica (its forward pass's, before the backward pass"
          + " adds theirs), %s for the %d replicas on %s at once, more than the %s it has available",
          model, gib(footprint.heldBytes(batch)), gib(held), replicas, host, gib(availableBytes)),
          Character.toUpperCase(fix.charAt(0)) + fix.substring(1));
    }
    long most = replicas * (RUNTIME_BYTES_PER_REPLICA + footprint.peakBytes(batch));
    if (most > WARN_SHARE * availableBytes) {
      return Optional.of(String.format(Locale.ROOT, "--batch-size %d: the %d replicas of model %s may need up to %s"
          + " at once on %s (their training steps' peaks and libtorch's own), %s the %s it has available; if"
          + " the JVM is killed (exit code 137), %s", batch, replicas, model, gib(most), host,
          most > availableBytes ? "more than" : "close to", gib(availableBytes), fix));
    }
    return Optional.empty();
  }

  /** Whether executors run in containers whose memory outside the JVM heap is the executor's overhead. */
  static boolean inContainers(String master) {
    return master.equals("yarn") || master.startsWith("k8s://");
  }

  /**
   * A warning when the tensors of an executor's replicas ({@code spark.executor.cores /
   * spark.task.cpus}) at their steps' peaks alone exceed the executor's memory overhead, where they
   * live. Only then: the heap the JVM leaves unused also takes native memory before the container's
   * limit, so a smaller excess may still fit.
   */
  static Optional<String> overheadWarning(SparkConf conf, String model, int batch, StepFootprint footprint) {
    int replicas = Math.max(1, conf.getInt("spark.executor.cores", 1) / conf.getInt("spark.task.cpus", 1));
    long overheadMb = conf.contains("spark.executor.memoryOverhead")
        ? conf.getSizeAsMb("spark.executor.memoryOverhead")
        : Math.max(conf.getSizeAsMb("spark.executor.minMemoryOverhead", "384m"),
            (long) (conf.getDouble("spark.executor.memoryOverheadFactor", 0.1)
                * conf.getSizeAsMb("spark.executor.memory", "1g")));
    long peaks = replicas * footprint.peakBytes(batch);
    if (peaks <= overheadMb << 20) {
      return Optional.empty();
    }
    long most = peaks + replicas * RUNTIME_BYTES_PER_REPLICA;
    return Optional.of(String.format(Locale.ROOT, "--batch-size %d: the training steps of an executor's %d"
        + " replica(s) of model %s may need up to %s outside the JVM heap at their peaks, more than its memory"
        + " overhead (%d MiB), so its container may be killed (exit code 137). Set spark.executor.memoryOverhead to"
        + " %dm or more (libtorch's own included), or lower --batch-size.", batch, replicas, model, gib(peaks),
        overheadMb, (most + (1 << 20) - 1) >> 20));
  }

  private static String gib(long bytes) {
    return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
  }
}
