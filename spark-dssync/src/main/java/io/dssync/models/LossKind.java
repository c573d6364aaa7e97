package io.dssync.models;

/**
 * What a model's output means, which fixes its loss and its test metric. Chosen by the model
 * registry ({@code io.dssync.models.Models#lossKind}), so a model name alone says how it is trained.
 */
public enum LossKind {
  /** Logits (batch, numClasses); softmax cross-entropy; metric accuracy. */
  CLASSIFICATION("accuracy"),
  /**
   * Logits (masked positions, vocabSize) for the positions whose target (feature row 1) is a
   * token id; cross-entropy averaged over those positions; metric masked-token accuracy.
   */
  MASKED_LM("masked_accuracy"),
  /** One logit per example (batch, 1); log-loss; metric AUC over the whole evaluated set. */
  BINARY("auc");

  private final String metricName;

  LossKind(String metricName) {
    this.metricName = metricName;
  }

  /** Name of the test metric shown in progress lines, summaries and metrics files. */
  public String metricName() {
    return metricName;
  }
}
