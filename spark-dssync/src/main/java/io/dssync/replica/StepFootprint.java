package io.dssync.replica;

import java.io.Serializable;

/**
 * The native memory a replica's training step needs, as a function of the batch: the tensors its
 * forward pass creates, all still held when the backward pass starts, have a part that grows with
 * every example and a part that does not. The backward pass adds the activations' gradients on top.
 */
public record StepFootprint(long fixedBytes, long bytesPerExample) implements Serializable {
  /**
   * Peak resident memory of a step over its forward tensors, measured one replica per fresh JVM at steps
   * of a GB or more, where a host's memory is at stake: cnn 1.52 and 1.37
   * (batches 1,000 and 4,000), wrn-10-2 1.40 (1,000), wrn-16-8 1.19 (400), mlp 0.90 (40,000: its
   * flattened input is a view of the input, counted twice). Smaller steps weigh libtorch's own
   * buffers more (cnn at 200: 1.97).
   */
  public static final double PEAK_OVER_HELD = 1.6;

  public StepFootprint {
    if (fixedBytes < 0 || bytesPerExample <= 0) {
      throw new IllegalArgumentException("footprint " + fixedBytes + " + " + bytesPerExample + " per example");
    }
  }

  /** Bytes of the forward pass's tensors at {@code batch} examples: what a step holds at the least. */
  public long heldBytes(long batch) {
    return fixedBytes + bytesPerExample * batch;
  }

  /** About the peak of a step at {@code batch} examples (an upper estimate, see {@link #PEAK_OVER_HELD}). */
  public long peakBytes(long batch) {
    return (long) Math.ceil(heldBytes(batch) * PEAK_OVER_HELD);
  }

  /** The largest batch whose estimated peak fits within {@code bytes} (0 if not even one example fits). */
  public long largestBatchWithin(long bytes) {
    long batch = Math.max(0, (long) ((bytes / PEAK_OVER_HELD - fixedBytes) / bytesPerExample));
    while (batch > 0 && peakBytes(batch) > bytes) {
      batch--;
    }
    return batch;
  }
}
