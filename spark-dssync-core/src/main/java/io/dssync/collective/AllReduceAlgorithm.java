package io.dssync.collective;

import io.dssync.errors.Errors;
import java.util.Arrays;
import java.util.Locale;

/**
 * How the members of a group of three or more move their chunks ({@link GroupAllReduce}); a pair
 * swaps its halves directly under every one, and gets the same floats.
 */
public enum AllReduceAlgorithm {
  /**
   * {@link #RING} for a group whose members sit on more than one host, {@link #DIRECT} for a group
   * on one host (or when the hosts are unknown): across a network the ring's one flow per link
   * wins, between the executors of one host (shared memory, no link to share) the direct
   * exchange's two steps do.
   */
  AUTO,
  /**
   * Every member sends each other member its chunk, then its averaged chunk: two exchanges
   * whatever g, so the lowest latency, and each chunk is summed in ascending rank order (the
   * reference of the invariants). Each member keeps g-1 flows open in each direction.
   */
  DIRECT,
  /**
   * The members pass chunks around a ring, each only to the next: 2(g-1) exchanges, one flow per
   * link; in host order on a cluster ({@link HostOrder}), so a ring across two racks crosses
   * between them twice instead of once per pair of members. Each chunk is summed around the ring,
   * starting at its owner's successor and ending at its owner: every member gets the same floats,
   * equal to the rank-order mean up to rounding, not bit for bit.
   */
  RING;

  /** The value as users write it: "auto", "direct" or "ring". */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a user's value; {@code flag} (as users write it: "--all-reduce") names where it came from in the error. */
  public static AllReduceAlgorithm parse(String flag, String value) {
    for (AllReduceAlgorithm a : values()) {
      if (a.label().equalsIgnoreCase(value == null ? "" : value.trim())) {
        return a;
      }
    }
    throw Errors.invalidSetting(flag, value, "the all-reduce algorithm is one of "
        + Arrays.stream(values()).map(AllReduceAlgorithm::label).toList(),
        "Use auto (the default: ring where a group spans hosts, else direct), direct (fewest round trips,"
            + " sums in rank order) or ring (one flow per link).");
  }
}
