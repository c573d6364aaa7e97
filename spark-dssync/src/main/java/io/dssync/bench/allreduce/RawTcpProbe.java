package io.dssync.bench.allreduce;

import io.dssync.errors.ClusterErrors;
import io.dssync.errors.Errors;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * The yardstick for the all-reduce: a plain java.net TCP transfer of {@code bytes} bytes, one way,
 * between two executor processes. The receiver listens on the executor's own address (the one its
 * peers reach its block manager at, never the wildcard); the sender times write-everything plus
 * a one-byte acknowledgement (so the time covers delivery, not just the local socket buffer) and
 * keeps the best of {@code repeats}.
 */
final class RawTcpProbe {
  /** Sender's write unit: large enough that per-call overhead vanishes. */
  private static final int BUFFER = 1 << 20;

  private RawTcpProbe() {}

  /** Binds the receiving server on {@code host}, port chosen by the OS. */
  static ServerSocket listen(String host) {
    try {
      InetAddress address = InetAddress.getByName(host);
      if (address.isAnyLocalAddress()) {
        throw Errors.invalidSetting("raw TCP probe address", host, "it must be the executor's own"
            + " address, not the wildcard", "Set SPARK_LOCAL_IP on the executors to their address.");
      }
      ServerSocket server = new ServerSocket();
      server.bind(new InetSocketAddress(address, 0), 1);
      return server;
    } catch (IOException e) {
      throw Errors.invalidSetting("raw TCP probe address", host, "cannot listen there: " + e.getMessage(),
          "Set SPARK_LOCAL_IP on the executors to an address of their own host.");
    }
  }

  /** Receives {@code repeats} transfers of {@code bytes} each, acknowledging each one. */
  static void receive(ServerSocket server, long bytes, int repeats, long timeoutMs, int rank, int sender) {
    try (server) {
      server.setSoTimeout(Math.toIntExact(timeoutMs));
      try (Socket socket = server.accept()) {
        socket.setSoTimeout(Math.toIntExact(timeoutMs));
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        byte[] buffer = new byte[BUFFER];
        for (int r = 0; r < repeats; r++) {
          long left = bytes;
          while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
              throw new IOException("the sender closed the connection with " + left + " bytes to go");
            }
            left -= n;
          }
          out.write(1);
          out.flush();
        }
      }
    } catch (SocketTimeoutException e) {
      throw ClusterErrors.peerTimeout(rank, sender, 0, "the raw TCP probe transfer", timeoutMs);
    } catch (IOException e) {
      throw ClusterErrors.transportFailure(rank, sender, 0, "receive the raw TCP probe from", e);
    }
  }

  /** Sends {@code repeats} transfers to {@code host:port}; returns the best throughput in MB/s (1e6 bytes). */
  static double send(String host, int port, long bytes, int repeats, long timeoutMs, int rank, int receiver) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), Math.toIntExact(timeoutMs));
      socket.setSoTimeout(Math.toIntExact(timeoutMs));
      OutputStream out = socket.getOutputStream();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      byte[] buffer = new byte[BUFFER];
      long best = Long.MAX_VALUE;
      for (int r = 0; r < repeats; r++) {
        long start = System.nanoTime();
        long left = bytes;
        while (left > 0) {
          int n = (int) Math.min(buffer.length, left);
          out.write(buffer, 0, n);
          left -= n;
        }
        out.flush();
        in.readByte();
        best = Math.min(best, System.nanoTime() - start);
      }
      return bytes / (best / 1e9) / 1e6;
    } catch (SocketTimeoutException e) {
      throw ClusterErrors.peerTimeout(rank, receiver, 0, "the raw TCP probe acknowledgement", timeoutMs);
    } catch (IOException e) {
      throw ClusterErrors.transportFailure(rank, receiver, 0, "send the raw TCP probe to", e);
    }
  }
}
