package io.dssync.train;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local master URL, parsed as Spark matches it: {@code local} (one thread), {@code local[N]},
 * {@code local[*]} (the machine's cores) and {@code local[N,F]} (F task failures allowed).
 */
public record LocalMaster(int threads) {
  private static final Pattern URL = Pattern.compile("local(\\[(\\d+|\\*)(\\s*,\\s*\\d+)?])?");

  /** The master's threads, or empty when {@code master} is not a local URL. */
  public static Optional<LocalMaster> parse(String master) {
    Matcher m = URL.matcher(master);
    if (!m.matches()) {
      return Optional.empty();
    }
    String n = m.group(2);
    int threads = n == null ? 1 : n.equals("*") ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(n);
    return Optional.of(new LocalMaster(threads));
  }
}
