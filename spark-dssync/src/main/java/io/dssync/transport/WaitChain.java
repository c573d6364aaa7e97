package io.dssync.transport;

import io.dssync.errors.ClusterErrors;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.network.client.TransportClient;

/**
 * Who holds up whom, asked after a rank timed out waiting for a peer's part (the clauses of its
 * {@code ClusterErrors.peerTimeout}).
 */
final class WaitChain {
  /** How long a rank that timed out spends asking who holds up whom (on top of its sync timeout). */
  private static final Duration BUDGET = Duration.ofSeconds(2);
  /** Asks peers what they wait for (daemon threads, only after a timeout). */
  private static final ExecutorService QUERIES =
      Executors.newCachedThreadPool(DaemonThreads.named("dssync-wait-query"));

  private WaitChain() {}

  /**
   * What the rank that did not deliver is doing, asked over its data channel, and so on along the
   * ranks each one waits for, until one waits for nobody, does not answer or closes a cycle; each
   * answer a clause. A stage fails with whichever timeout reaches the driver first, and on a busy
   * machine that can be a rank at the end of a chain of waits: this names the rank at its head.
   */
  static List<String> from(DataChannel channel, PeerAddress[] peers, int self, int first) {
    long deadline = System.nanoTime() + BUDGET.toNanos();
    List<String> clauses = new ArrayList<>();
    Set<Integer> asked = new HashSet<>(Set.of(self));
    for (int r = first; asked.add(r); ) {
      PeerWait answer = ask(channel, peers[r], deadline);
      if (answer == null) {
        clauses.add(PeerWait.silent(r, BUDGET.toMillis()));
        break;
      }
      clauses.add(answer.describe(r));
      if (answer.state() == PeerWait.State.IDLE || answer.sender() < 0 || answer.sender() >= peers.length) {
        break;
      }
      r = answer.sender();
    }
    return clauses;
  }

  /** The answer of the rank at {@code peer}, or null when none came by the deadline. */
  private static PeerWait ask(DataChannel channel, PeerAddress peer, long deadline) {
    // On its own thread: connecting to a lost host can take far longer than the deadline.
    CompletableFuture<PeerWait> answer = CompletableFuture.supplyAsync(() -> {
      try {
        long ms = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        TransportClient client = channel.connect(peer.host(), peer.port());
        return PeerWait.decode(client.sendRpcSync(PeerWait.query(peer.inboxId()), ms));
      } catch (IOException | InterruptedException | RuntimeException e) {
        return null;
      }
    }, QUERIES);
    try {
      return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
