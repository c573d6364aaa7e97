package io.dssync.models;

import java.util.Arrays;
import java.util.Locale;

/**
 * What a model's output means, which fixes its loss and its test metric. A built-in model names its own
 * (see {@link ModelSource#defaultLoss}); {@code --loss} chooses another for any model.
 */
public enum LossKind {
  /** Logits (batch, numClasses); softmax cross-entropy; metric accuracy. */
  CLASSIFICATION("cross-entropy", "accuracy"),
  /**
   * Logits (masked positions, vocabSize) for the positions whose target (feature row 1) is a
   * token id; cross-entropy averaged over those positions; metric masked-token accuracy.
   */
  MASKED_LM("masked-lm", "masked_accuracy"),
  /** One logit per example (batch, 1); log-loss; metric AUC over the whole evaluated set. */
  BINARY("binary", "auc"),
  /** One logit per label (batch, labelWidth), labels 0/1; binary cross-entropy per label; metric micro-AUC. */
  MULTI_LABEL("multi-label", "auc"),
  /** Real outputs (batch, labelWidth); mean squared error; metric R² (RMSE and MAE alongside). */
  MSE("mse", "r2"),
  /** Real outputs (batch, labelWidth); mean absolute error; metric R² (RMSE and MAE alongside). */
  L1("l1", "r2"),
  /** Real outputs (batch, labelWidth); Huber loss with delta 1; metric R² (RMSE and MAE alongside). */
  HUBER("huber", "r2"),
  /** The TorchScript file's own {@code dssync_loss(output, label)}; the metric is that loss on the test set. */
  CUSTOM("custom", "loss");

  private final String flagName;
  private final String metricName;

  LossKind(String flagName, String metricName) {
    this.flagName = flagName;
    this.metricName = metricName;
  }

  /** Name of the test metric shown in progress lines, summaries and metrics files. */
  public String metricName() {
    return metricName;
  }

  /** The value of {@code --loss} that chooses this loss. */
  public String flagName() {
    return flagName;
  }

  /** Whether labels are class indices (one per example) rather than real values. */
  public boolean classLabels() {
    return this == CLASSIFICATION || this == MASKED_LM || this == BINARY;
  }

  /** Whether the metric is R² of a regression. */
  public boolean regression() {
    return this == MSE || this == L1 || this == HUBER;
  }

  /** The output width this loss expects for a task of {@code numClasses} classes and labels of {@code labelWidth}. */
  int outputSize(int numClasses, int labelWidth) {
    return switch (this) {
      case CLASSIFICATION, MASKED_LM -> numClasses;
      case BINARY -> 1;
      case MULTI_LABEL, MSE, L1, HUBER -> labelWidth;
      case CUSTOM -> -1;
    };
  }

  /** The {@code --loss} values, for help texts and errors. */
  public static String[] flagNames() {
    return Arrays.stream(values()).map(LossKind::flagName).toArray(String[]::new);
  }

  /** The loss called {@code flagName} ({@code --loss}), or null when there is none. */
  public static LossKind ofFlag(String flagName) {
    String name = flagName == null ? "" : flagName.trim().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(k -> k.flagName.equals(name)).findFirst().orElse(null);
  }
}
