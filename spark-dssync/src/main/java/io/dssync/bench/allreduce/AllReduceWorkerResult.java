package io.dssync.bench.allreduce;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.Base64;

/**
 * What one rank measured. Per cell: the time between the completions of consecutive timed
 * all-reduces (an op cannot complete before every member joined it, so back-to-back ops keep a
 * group in lock step and this interval is the op time), and the transport's wait and transfer
 * nanoseconds and the executor process's CPU time (all its threads, Netty's included) summed over
 * the timed ops. {@code intervalsMs[c]} is null when the rank sat cell c
 * out. The raw TCP throughputs (before and after the cells) are NaN except on the rank that sent
 * the raw TCP probe. {@code warmupOps[c]}: the untimed ops this rank ran before cell c (0 when it
 * sat the cell out).
 */
record AllReduceWorkerResult(
    int rank,
    String executorId,
    String host,
    double rawTcpMBps,
    double rawTcpAfterMBps,
    double[][] intervalsMs,
    long[] waitNanos,
    long[] transferNanos,
    long[] cpuNanos,
    int[] warmupOps) implements Serializable {
  /**
   * The result as one line of text, which is how it travels back as a task result: a session with
   * spark.kryo.registrationRequired=true (dssync-defaults.conf) serializes String[] but not bench
   * classes, and registering them in train's Kryo registrator would make train depend on bench.
   */
  String encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(this);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode the allreduce result of rank " + rank, e);
    }
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }

  static AllReduceWorkerResult decode(String text) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
      return (AllReduceWorkerResult) in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("cannot decode an allreduce result from an executor", e);
    }
  }

  AllReduceWorkerResult withRawAfter(double mbps) {
    return new AllReduceWorkerResult(rank, executorId, host, rawTcpMBps, mbps, intervalsMs, waitNanos,
        transferNanos, cpuNanos, warmupOps);
  }
}
