package io.dssync.train;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The consensus every worker starts a stage from: the same model and optimizer state everywhere,
 * so a partition may run on any executor and a failed stage can be rerun from here without
 * double-counting steps.
 */
public record ConsensusState(float[] state, float[] optimizerState, long optimizerSteps) implements Serializable {
  /**
   * The consensus from one vector holding the model state ({@code stateLength} floats) followed by
   * the optimizer state, as the stage-end all-reduce averages them.
   */
  static ConsensusState split(float[] stateThenOptimizer, int stateLength, long optimizerSteps) {
    return new ConsensusState(Arrays.copyOf(stateThenOptimizer, stateLength),
        Arrays.copyOfRange(stateThenOptimizer, stateLength, stateThenOptimizer.length), optimizerSteps);
  }

  /**
   * A 64-bit digest of every bit of the state, the optimizer state and the step count. Two copies
   * with the same fingerprint are taken to be the same consensus (see {@link StageStart}).
   */
  public long fingerprint() {
    long h = mix(optimizerSteps ^ 0x9E3779B97F4A7C15L);
    h = digest(h, state);
    return digest(h, optimizerState);
  }

  private static long digest(long h, float[] values) {
    h = mix(h ^ values.length);
    for (float v : values) {
      // Raw bits: -0.0 and every NaN payload count as different values, as they would train differently.
      h = h * 0x100000001B3L + Float.floatToRawIntBits(v);
    }
    return mix(h);
  }

  /** The finaliser of MurmurHash3: spreads every input bit over the whole word. */
  private static long mix(long h) {
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB93FE1A85EC1L;
    return h ^ (h >>> 33);
  }
}
