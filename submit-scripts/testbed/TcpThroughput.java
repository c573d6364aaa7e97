import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Locale;

/**
 * Raw TCP throughput between two hosts of the testbed, without extra packages (run with the JDK's
 * source launcher: java TcpThroughput.java ...).
 *
 * <pre>
 *   java TcpThroughput.java receive ADDRESS PORT      accept one connection, count bytes, print the rate
 *   java TcpThroughput.java send ADDRESS PORT SECONDS  send zeros to ADDRESS:PORT for SECONDS
 * </pre>
 *
 * The receiver measures from the first byte to the end of the stream, so connection set-up and
 * the sender's start-up do not dilute the rate.
 */
public final class TcpThroughput {
  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: receive ADDRESS PORT | send ADDRESS PORT SECONDS");
      System.exit(2);
    }
    InetAddress address = InetAddress.getByName(args[1]);
    int port = Integer.parseInt(args[2]);
    if (args[0].equals("receive")) {
      receive(address, port);
    } else {
      send(address, port, Double.parseDouble(args[3]));
    }
  }

  private static void receive(InetAddress address, int port) throws Exception {
    try (ServerSocket server = new ServerSocket()) {
      server.bind(new InetSocketAddress(address, port));
      System.out.println("listening");
      System.out.flush();
      try (Socket socket = server.accept(); InputStream in = socket.getInputStream()) {
        byte[] buffer = new byte[1 << 16];
        long bytes = 0;
        long first = 0;
        for (int n; (n = in.read(buffer)) >= 0; ) {
          if (bytes == 0) {
            first = System.nanoTime();
          }
          bytes += n;
        }
        double seconds = (System.nanoTime() - first) / 1e9;
        System.out.printf(Locale.ROOT, "received %d bytes in %.2f s: %.1f Mbit/s%n", bytes, seconds,
            bytes * 8 / seconds / 1e6);
      }
    }
  }

  private static void send(InetAddress address, int port, double seconds) throws Exception {
    try (Socket socket = new Socket(address, port); OutputStream out = socket.getOutputStream()) {
      byte[] buffer = new byte[1 << 16];
      long end = System.nanoTime() + (long) (seconds * 1e9);
      while (System.nanoTime() < end) {
        out.write(buffer);
      }
    }
  }
}
