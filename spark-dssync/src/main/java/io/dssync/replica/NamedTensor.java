package io.dssync.replica;

import java.util.Arrays;

/**
 * One tensor of a replica's flat state: its name as the model's engine calls it (PyTorch's
 * {@code named_parameters()} / buffer names for a TorchScript file, DJL's parameter names for a block),
 * its shape, and whether it is a trainable parameter (else a buffer averaged with them).
 */
public record NamedTensor(String name, long[] shape, boolean trainable) {
  public NamedTensor {
    shape = shape.clone();
  }

  /** Floats the tensor holds (1 for a scalar, 0 when a dimension is 0). */
  public long size() {
    long n = 1;
    for (long d : shape) {
      n *= d;
    }
    return n;
  }

  @Override
  public long[] shape() {
    return shape.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NamedTensor t && t.name.equals(name) && Arrays.equals(t.shape, shape)
        && t.trainable == trainable;
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + Arrays.hashCode(shape);
  }

  @Override
  public String toString() {
    return name + Arrays.toString(shape);
  }
}
