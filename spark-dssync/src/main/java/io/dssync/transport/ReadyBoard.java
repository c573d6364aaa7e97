package io.dssync.transport;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.TaskContext;

/**
 * Reader side: which peers' blocks are known to exist. A READY signal may arrive before or after
 * the reader asks, so both sides create the entry on first touch.
 */
final class ReadyBoard {
  private final ConcurrentHashMap<String, CompletableFuture<Void>> ready = new ConcurrentHashMap<>();

  /** Called from the network thread when a sender announces {@code blockName}. */
  void markReady(String blockName) {
    entry(blockName).complete(null);
  }

  /** Waits until {@code blockName} is announced; returns false at the deadline. */
  boolean await(String blockName, long deadlineNanos, TaskContext task) {
    boolean done = TaskWaits.await(entry(blockName), deadlineNanos, task);
    if (done) {
      // Each block is read once per reader; forget it so a long stage does not accumulate entries.
      ready.remove(blockName);
    }
    return done;
  }

  void clear() {
    ready.clear();
  }

  private CompletableFuture<Void> entry(String blockName) {
    return ready.computeIfAbsent(blockName, k -> new CompletableFuture<>());
  }
}
