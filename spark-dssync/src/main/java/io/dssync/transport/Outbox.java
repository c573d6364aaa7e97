package io.dssync.transport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.TaskContext;
import org.apache.spark.storage.BlockId;

/**
 * Sender side: the blocks this task published that some reader has not fetched yet. FETCHED
 * signals arrive on a network thread; blocks whose readers are all done move to a release queue
 * that the task thread drains, so BlockManager removals never run (and never block on a lock) on
 * a network thread.
 */
final class Outbox {
  /** A published block and the readers it still waits for. */
  private record Entry(BlockId id, long step, long bytes, Set<Integer> waitingFor) {}

  /** The first reader that never fetched, for the error message. */
  record Missing(String blockName, long step, int reader) {}

  private final Map<String, Entry> pending = new HashMap<>(); // guarded by this
  private final ConcurrentLinkedQueue<BlockId> released = new ConcurrentLinkedQueue<>();
  private final AtomicLong bytesServed;

  Outbox(AtomicLong bytesServed) {
    this.bytesServed = bytesServed;
  }

  /** Records a block before it is announced, so no FETCHED can arrive for an unknown block. */
  synchronized void register(BlockId id, long step, long bytes, int[] readers) {
    Set<Integer> waitingFor = new HashSet<>();
    for (int r : readers) {
      waitingFor.add(r);
    }
    if (pending.putIfAbsent(id.name(), new Entry(id, step, bytes, waitingFor)) != null) {
      // Spark silently ignores a put of an existing id; readers would get stale data.
      throw new IllegalStateException("block " + id.name() + " was published twice in one stage");
    }
  }

  synchronized void forget(BlockId id) {
    pending.remove(id.name());
  }

  /** Called from the network thread when {@code reader} has fetched {@code blockName}. */
  synchronized void acknowledge(String blockName, int reader) {
    Entry e = pending.get(blockName);
    if (e == null || !e.waitingFor.remove(reader)) {
      return; // a duplicate or a late message after close: nothing to do
    }
    bytesServed.addAndGet(e.bytes);
    if (e.waitingFor.isEmpty()) {
      pending.remove(blockName);
      released.add(e.id);
      notifyAll();
    }
  }

  /** Blocks every reader has fetched, for the task thread to remove. */
  List<BlockId> drainReleased() {
    List<BlockId> out = new ArrayList<>();
    for (BlockId id; (id = released.poll()) != null; ) {
      out.add(id);
    }
    return out;
  }

  /** Waits until every published block was fetched by all its readers; else names one that was not. */
  synchronized Missing awaitAllFetched(long deadlineNanos, TaskContext task) {
    if (TaskWaits.awaitOn(this, pending::isEmpty, deadlineNanos, task)) {
      return null;
    }
    Entry e = pending.values().stream().min((a, b) -> Long.compare(a.step, b.step)).orElseThrow();
    int reader = e.waitingFor.stream().min(Integer::compare).orElseThrow();
    return new Missing(e.id.name(), e.step, reader);
  }

  /** Empties the outbox, returning every block still stored (pending or released). */
  synchronized List<BlockId> takeAll() {
    List<BlockId> out = drainReleased();
    for (Entry e : pending.values()) {
      out.add(e.id);
    }
    pending.clear();
    return out;
  }
}
