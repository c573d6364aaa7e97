package io.dssync.train;

import io.dssync.collective.Chunking;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One worker's share of the stage-end consensus it returns to the driver: floats
 * [{@code offset}, {@code offset + values.length}) of the model state followed by the optimizer
 * state ({@code length} floats, the first {@code stateLength} of them the model's). Every rank holds
 * the whole consensus after the stage-end average, so each returns only its 1/N: the driver
 * receives N small results at once instead of the whole state through one executor's link (on the
 * 3 x 2 testbed, 3.4 MB through one 100 Mbit/s rack uplink took about 0.3 s per stage).
 */
public record ConsensusPart(int offset, float[] values, int stateLength, int length, long optimizerSteps)
    implements Serializable {

  /**
   * Rank {@code rank}'s part of {@code stateThenOptimizer} among {@code workers} ranks: its chunk by
   * the all-reduce's slice rule ({@link Chunking}).
   */
  static ConsensusPart of(int rank, int workers, float[] stateThenOptimizer, int stateLength, long optimizerSteps) {
    int length = stateThenOptimizer.length;
    int from = Chunking.offset(length, workers, rank);
    return new ConsensusPart(from,
        Arrays.copyOfRange(stateThenOptimizer, from, from + Chunking.length(length, workers, rank)), stateLength,
        length, optimizerSteps);
  }

  /**
   * The consensus the parts make up, which must cover every float once and agree on the sizes and
   * the step count; anything else means a worker returned the wrong part, a bug, not bad input.
   */
  static ConsensusState assemble(List<ConsensusPart> parts) {
    if (parts.isEmpty()) {
      throw new IllegalStateException("no worker returned a part of the consensus");
    }
    ConsensusPart first = parts.get(0);
    float[] all = new float[first.length()];
    int covered = 0;
    for (ConsensusPart p : parts.stream().sorted(Comparator.comparingInt(ConsensusPart::offset)).toList()) {
      // With more ranks than floats some parts are empty; they cover nothing and may sit anywhere.
      boolean misplaced = p.values().length > 0 && p.offset() != covered;
      if (misplaced || p.length() != first.length() || p.stateLength() != first.stateLength()
          || p.optimizerSteps() != first.optimizerSteps()) {
        throw new IllegalStateException(String.format(
            "consensus parts do not fit: a part at offset %d of %d floats (state %d, %d optimizer steps) after %d"
                + " floats covered (expected %d floats, state %d, %d steps)", p.offset(), p.length(),
            p.stateLength(), p.optimizerSteps(), covered, first.length(), first.stateLength(),
            first.optimizerSteps()));
      }
      System.arraycopy(p.values(), 0, all, p.offset(), p.values().length);
      covered += p.values().length;
    }
    if (covered != first.length()) {
      throw new IllegalStateException("consensus parts cover " + covered + " of " + first.length() + " floats");
    }
    return ConsensusState.split(all, first.stateLength(), first.optimizerSteps());
  }
}
