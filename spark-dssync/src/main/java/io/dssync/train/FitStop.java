package io.dssync.train;

import java.io.Serializable;

/**
 * Why a fit ended before its last planned stage: early stopping or a {@link StageCallback}. Stages count from 0
 * as in {@link io.dssync.metrics.StageMetrics#stage()}; {@code modelStage} is the stage whose consensus is the
 * result (under early stopping the best evaluated one, else the last one run; -1 when none was evaluated).
 */
public record FitStop(int afterStage, int modelStage, String reason) implements Serializable {
  /** One line for logs and summaries, stages counted from 1 as progress lines show them. */
  public String describe() {
    return "stopped after stage " + (afterStage + 1) + ": " + reason
        + (modelStage >= 0 && modelStage != afterStage ? "; the model is stage " + (modelStage + 1) + "'s" : "");
  }
}
