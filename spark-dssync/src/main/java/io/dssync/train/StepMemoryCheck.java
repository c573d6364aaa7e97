package io.dssync.train;

import io.dssync.errors.Errors;
import io.dssync.replica.StepFootprint;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.spark.SparkConf;

/**
 * Refuses, before the first stage, a fit whose replicas' training steps need more memory at once
 * than the host running them has left: the kernel would end the JVM (exit 137; in a notebook the
 * kernel dies) with no word of why. Checked where the driver sees that host: local and local-cluster
 * masters, whose replicas all run on the driver's machine. On YARN and Kubernetes, whose containers
 * limit an executor's memory outside the heap to its overhead, a warning says when the steps of its
 * replicas may not fit there.
 */
final class StepMemoryCheck {
  /** Estimated peaks above this share of the available memory start with a warning. */
  static final double WARN_SHARE = 0.75;

  private StepMemoryCheck() {}

  /** How many replicas run on the driver's host under {@code master} at once, if all of them do. */
  static OptionalInt replicasOnThisHost(String master, int workers) {
    boolean here = LocalMaster.parse(master).isPresent() || LocalClusterMaster.parse(master).isPresent();
    return here ? OptionalInt.of(workers) : OptionalInt.empty();
  }

  /**
   * Throws a {@code --batch-size} error, naming the sizes and the largest batch that fits, when
   * {@code replicas} steps of {@code batch} examples hold more than {@code availableBytes} even by
   * their forward tensors alone; returns a warning when their estimated peaks exceed
   * {@link #WARN_SHARE} of it.
   */
  static Optional<String> require(String model, int replicas, int batch, StepFootprint footprint,
      long availableBytes) {
    String sizes = String.format(Locale.ROOT, "a training step of model %s at this batch holds %s of tensors per"
        + " replica (its forward pass's, before the backward pass adds theirs), %s for the %d replicas on this host"
        + " at once", model, gib(footprint.heldBytes(batch)), gib(replicas * footprint.heldBytes(batch)), replicas);
    if (replicas * footprint.heldBytes(batch) > availableBytes) {
      // The batch suggested keeps the estimated peaks below the share that warns.
      long largest = footprint.largestBatchWithin((long) (WARN_SHARE * availableBytes / replicas));
      String fix = largest >= 1
          ? String.format(Locale.ROOT, "Use --batch-size %d or less (the batch is per worker), fewer --workers, or"
              + " hosts with more memory.", largest)
          : "Use fewer --workers or a smaller model: not even one example per replica fits.";
      throw Errors.invalidFlag(TrainerConfig.BATCH_SIZE.name(), batch,
          sizes + ", more than the " + gib(availableBytes) + " the host has available", fix);
    }
    long peaks = replicas * footprint.peakBytes(batch);
    if (peaks > WARN_SHARE * availableBytes) {
      return Optional.of(String.format(Locale.ROOT, "--batch-size %d: the %d replicas' training steps of model %s"
          + " may need up to %s at once (their peaks), close to the %s this host has available; if the JVM is"
          + " killed (exit code 137), lower --batch-size.", batch, replicas, model, gib(peaks), gib(availableBytes)));
    }
    return Optional.empty();
  }

  /** Whether executors run in containers whose memory outside the JVM heap is the executor's overhead. */
  static boolean inContainers(String master) {
    return master.equals("yarn") || master.startsWith("k8s://");
  }

  /**
   * A warning when an executor's replicas ({@code spark.executor.cores / spark.task.cpus}) may need
   * more at their steps' peaks than the executor's memory overhead, where their tensors live.
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
    return Optional.of(String.format(Locale.ROOT, "--batch-size %d: an executor's %d replica(s) of model %s may need"
        + " up to %s at their training steps' peaks, outside the JVM heap, more than its memory overhead (%d MiB),"
        + " so its container may be killed (exit code 137). Set spark.executor.memoryOverhead to %dm or more (the"
        + " peaks and about 512 MiB for libtorch and the JVM's own), or lower --batch-size.", batch, replicas, model,
        gib(peaks), overheadMb, (peaks >> 20) + 512));
  }

  private static String gib(long bytes) {
    return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
  }
}
