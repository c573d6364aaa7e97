package io.dssync.transport;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Buffers kept for reuse by size: a stage repeats the same part sizes every step, so after the
 * first step nothing is allocated. At most {@link #PER_SIZE} are kept per size; more go to the GC.
 * Not thread-safe: the owner guards it with its own monitor.
 */
final class SizedPool<T> {
  static final int PER_SIZE = 64;

  private final Map<Integer, ArrayDeque<T>> free = new HashMap<>();
  private final IntFunction<T> allocate;

  SizedPool(IntFunction<T> allocate) {
    this.allocate = allocate;
  }

  /** A pooled buffer of {@code size}, or a new one. */
  T take(int size) {
    ArrayDeque<T> pool = free.get(size);
    T buffer = pool == null ? null : pool.poll();
    return buffer != null ? buffer : allocate.apply(size);
  }

  void give(int size, T buffer) {
    ArrayDeque<T> pool = free.computeIfAbsent(size, k -> new ArrayDeque<>());
    if (pool.size() < PER_SIZE) {
      pool.push(buffer);
    }
  }

  void clear() {
    free.clear();
  }
}
