package io.dssync.collective;

/**
 * Identifies one published piece of a chunk within a stage: the transport adds the sender, and
 * every id is unique per (stage, step, round, phase, sender, chunk, part).
 *
 * @param step global training step the exchange belongs to
 * @param round distinguishes several all-reduces in one step (for example the stage-end average)
 * @param phase 0 = reduce-scatter, 1 = all-gather; 2 and 3 the same inside a rack, for the two-level
 *     average ({@link GroupAllReduce#averageInRacks})
 * @param chunk chunk index within the group's slicing of the vector
 * @param part piece of the chunk ({@link Parts#PART_FLOATS} floats each), so that the
 *     transfer of one piece overlaps the sum of the one before
 */
public record MessageId(long step, int round, int phase, int chunk, int part) {
  /** Part 0 of a chunk: the whole chunk when it is at most one part long. */
  public MessageId(long step, int round, int phase, int chunk) {
    this(step, round, phase, chunk, 0);
  }

  /** For error messages: "reduce-scatter chunk 1 part 3 (round 0)". */
  public String describe() {
    String name = switch (phase) {
      case 0 -> "reduce-scatter";
      case 1 -> "all-gather";
      case 2 -> "in-rack reduce-scatter";
      case 3 -> "in-rack all-gather";
      default -> "phase " + phase;
    };
    return name + " chunk " + chunk + (part > 0 ? " part " + part : "") + " (round " + round + ")";
  }

  public String token() {
    return step + "-" + round + "-" + phase + "-" + chunk + "-" + part;
  }
}
