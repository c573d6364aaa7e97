package io.dssync.collective;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs one task per rank, each on its own thread, and collects what each one threw. */
final class Members {
  private static final long DEADLINE_SECONDS = 60;

  interface RankTask {
    void run(int rank) throws Exception;
  }

  private Members() {}

  /** Runs {@code task} for ranks 0..n-1 in parallel; returns each rank's failure (null if none). */
  static Throwable[] run(int n, RankTask task) {
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        int rank = r;
        futures.add(pool.submit(() -> {
          task.run(rank);
          return null;
        }));
      }
      Throwable[] failures = new Throwable[n];
      for (int r = 0; r < n; r++) {
        try {
          futures.get(r).get(DEADLINE_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          failures[r] = e.getCause();
        } catch (TimeoutException e) {
          throw new AssertionError("rank " + r + " did not finish within " + DEADLINE_SECONDS + " s (deadlock?)");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted while waiting for rank " + r);
        }
      }
      return failures;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Like {@link #run} but fails the test if any rank threw. */
  static void runAll(int n, RankTask task) {
    Throwable[] failures = run(n, task);
    for (int r = 0; r < n; r++) {
      if (failures[r] != null) {
        throw new AssertionError("rank " + r + " failed: " + failures[r], failures[r]);
      }
    }
  }
}
