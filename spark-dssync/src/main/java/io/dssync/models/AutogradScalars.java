package io.dssync.models;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;

/**
 * Arithmetic with a constant inside a forward pass that autograd records. Use these instead of
 * DJL's {@code NDArray.mul(Number)} (and div, add, maximum) on anything that may need a gradient.
 *
 * <p>Why: DJL turns the number into a 0-d tensor whose memory is a Java direct buffer
 * ({@code torch::from_blob}; only the Java wrapper keeps the buffer reachable) and closes that
 * wrapper as soon as the op returns. Autograd keeps the tensor for the backward pass (the gradient
 * of {@code x / c} needs {@code c}), so from then on libtorch points at a buffer the garbage
 * collector may free. After a GC, backward reads freed memory: wrong gradients, then NaN. The
 * more the JVM allocates, the sooner it happens, which is why four BERT replicas on threads of one
 * busy JVM ({@code local[4]}) hit NaN within a few steps while quiet executor JVMs seldom did; a
 * test that calls {@code System.gc()} during training reproduces it in one step. Here the constant
 * comes from {@code torch::full}: libtorch owns its memory, so autograd keeps it alive.
 */
public final class AutogradScalars {
  private AutogradScalars() {}

  public static NDArray mul(NDArray x, float c) {
    return x.mul(constant(x, c));
  }

  public static NDArray div(NDArray x, float c) {
    return x.div(constant(x, c));
  }

  public static NDArray add(NDArray x, float c) {
    return x.add(constant(x, c));
  }

  public static NDArray maximum(NDArray x, float c) {
    return x.maximum(constant(x, c));
  }

  /** A 0-d tensor of {@code c} in libtorch-owned memory, on {@code x}'s manager (freed with the step). */
  private static NDArray constant(NDArray x, float c) {
    return x.getManager().full(new Shape(), c, x.getDataType());
  }
}
