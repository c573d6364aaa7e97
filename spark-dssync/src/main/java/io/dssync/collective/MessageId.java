package io.dssync.collective;

/**
 * Identifies one published chunk within a stage: the transport adds run, stage and sender, so that
 * every block id is unique per (run, stage, step, round, phase, sender, chunk).
 *
 * @param step global training step the exchange belongs to
 * @param round distinguishes several all-reduces in one step (for example the stage-end average)
 * @param phase 0 = reduce-scatter, 1 = all-gather
 * @param chunk chunk index within the group's slicing of the vector
 */
public record MessageId(long step, int round, int phase, int chunk) {
  public String token() {
    return step + "-" + round + "-" + phase + "-" + chunk;
  }
}
