package io.dssync.data.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Downloads {@code baseUrl + fileName} over HTTP(S). Timeouts are short on purpose: on networks
 * that block the official host the connection can hang rather than fail, and a fallback source
 * should take over within seconds.
 */
public final class HttpSource implements FetchSource {
  private final String baseUrl;
  private final int connectTimeoutMs;
  private final int readTimeoutMs;

  public HttpSource(String baseUrl, int connectTimeoutMs, int readTimeoutMs) {
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl : baseUrl + "/";
    this.connectTimeoutMs = connectTimeoutMs;
    this.readTimeoutMs = readTimeoutMs;
  }

  @Override
  public String describe(String fileName) {
    return baseUrl + fileName;
  }

  @Override
  public void fetch(String fileName, Path target) throws IOException {
    HttpURLConnection connection =
        (HttpURLConnection) URI.create(describe(fileName)).toURL().openConnection();
    connection.setConnectTimeout(connectTimeoutMs);
    // A read timeout bounds every read, so a stalled transfer fails too, not only a slow connect.
    connection.setReadTimeout(readTimeoutMs);
    try {
      int status = connection.getResponseCode();
      if (status != HttpURLConnection.HTTP_OK) {
        throw new IOException("HTTP status " + status + " for " + describe(fileName));
      }
      try (InputStream in = connection.getInputStream()) {
        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      connection.disconnect();
    }
  }
}
