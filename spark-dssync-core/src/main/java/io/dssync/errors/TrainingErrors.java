package io.dssync.errors;

/**
 * Errors of a fit itself: divergence, a failing callback, interruption, exhausted retries.
 */
public final class TrainingErrors {
  private TrainingErrors() {}

  public static DsSyncException diverged(long step, double loss) {
    return diverged("loss is " + loss + " at step " + step, "Lower the learning rate or check the input data.");
  }

  /**
   * A value's change since the stage started does not fit in the IEEE half that
   * {@code --cross-rack-precision fp16} sends between racks.
   */
  public static DsSyncException halfOverflow(long step, int index, float change) {
    return diverged("parameter " + index + " changed by " + change + " since the stage started, at step " + step
        + ", beyond the +-65504 an IEEE half holds (--cross-rack-precision fp16)",
        "Lower the learning rate, or use --cross-rack-precision fp32.");
  }

  private static DsSyncException diverged(String what, String fix) {
    return new DsSyncException(ErrorKind.DIVERGED,
        "Training diverged: " + what + ". The last consensus model (before this stage) is kept. " + fix);
  }

  /** A user's stage callback threw after stage {@code stage} (counted from 1): the fit ends there. */
  public static DsSyncException callbackFailed(String callbackClass, int stage, RuntimeException cause) {
    return new DsSyncException(ErrorKind.CALLBACK, "The stage callback " + callbackClass + " threw after stage "
        + stage + ": " + cause + ". Training stopped there; the consensus of that stage is kept as the partial"
        + " result and the checkpoints written so far stay as they are. Fix the callback, then resume from the"
        + " checkpoint directory with --resume.", cause);
  }

  /**
   * The thread running a fit was interrupted {@code when} ("during stage 3 (steps 200-299), whose
   * Spark job was cancelled"); {@code keptAfterStep} is the last step of the consensus kept as the
   * partial result, or -1 when nothing was trained.
   */
  public static DsSyncException interrupted(String when, long keptAfterStep) {
    return new DsSyncException(ErrorKind.INTERRUPTED, "Training was interrupted " + when + ": nothing more is"
        + " trained" + (keptAfterStep >= 0 ? "; the consensus after step " + keptAfterStep + " is kept as the partial"
        + " result, and checkpoints written so far stay as they are." : "."));
  }

  /** The model file's own loss ({@code dssync_loss}) returned {@code loss} at {@code step}. */
  public static DsSyncException customLossNotFinite(long step, double loss) {
    return diverged("the model file's own loss (dssync_loss) returned " + loss + " at step " + step,
        "Check dssync_loss against the labels it gets (float32, batch x label width): a log of zero or a division"
            + " by zero gives NaN; or lower the learning rate.");
  }

  /** A stage kept failing with retryable errors; {@code last} is the final attempt's error. */
  public static DsSyncException stageAttemptsExhausted(int stage, int attempts, DsSyncException last) {
    return new DsSyncException(last.kind(), "Stage " + stage + " failed " + attempts + " times ("
        + Errors.flag("maxStageAttempts") + " = " + attempts + "); giving up. Last error: " + last.getMessage()
        + " Check executor logs for lost executors, or raise " + Errors.flag("maxStageAttempts") + ".", last);
  }
}
