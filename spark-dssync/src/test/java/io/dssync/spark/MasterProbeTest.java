package io.dssync.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/**
 * A standalone master that cannot be reached is a configuration error naming the URL and the fix.
 * (A master that refuses an application without its secret: AuthenticatedStandaloneSubmitTest; one
 * that accepts: every standalone test, whose submits pass through the probe.)
 */
class MasterProbeTest {
  @Test
  void aMasterNobodyListensAtIsAClearConfigurationError() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort(); // free again once closed: nothing listens there
    }
    String url = "spark://127.0.0.1:" + port;
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> MasterProbe.requireAccepted(url, new SparkConf(), Duration.ofSeconds(30)));
    assertEquals(ErrorKind.CONFIG, e.kind());
    assertTrue(e.getMessage().startsWith("The standalone master " + url + " did not accept this application"),
        e.getMessage());
    assertTrue(e.getMessage().contains("Connection refused"), e.getMessage());
    assertTrue(e.getMessage().contains("dssync-submit --auth"), e.getMessage());
  }
}
