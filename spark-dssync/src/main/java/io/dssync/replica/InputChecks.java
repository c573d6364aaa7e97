package io.dssync.replica;

import io.dssync.data.Labels;
import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import io.dssync.models.ModelSpec;

/** Validation of the arrays handed to a replica, with messages that name the bad value. */
final class InputChecks {
  private InputChecks() {}

  /**
   * {@code count} examples: {@code count * featureSize} features and {@code count * labelWidth} labels, class
   * indices in 0..numClasses-1 for class tasks and finite values otherwise.
   */
  static void batch(float[] features, float[] labels, int count, ModelSpec spec) {
    features(features, count, spec.featureSize());
    int w = spec.labelWidth();
    if (labels.length != (long) count * w) {
      throw DataErrors.lengthMismatch("labels of " + count + " examples x " + w + " values", count * w, labels.length);
    }
    Labels rule = spec.lossKind().classLabels() ? Labels.classes(Math.max(1, spec.numClasses())) : Labels.values(w);
    for (int i = 0; i < labels.length; i++) {
      String problem = rule.problem(labels[i], i % w);
      if (problem != null) {
        throw DataErrors.badRecord("at index " + i / w, problem, spec.lossKind().classLabels()
            ? "Check that the model's numClasses matches the dataset's labels." : rule.fix());
      }
    }
  }

  static void features(float[] features, int count, int featureSize) {
    if (count < 0) {
      throw Errors.invalidSetting("batch size", count, "must be >= 0", "Pass the number of examples.");
    }
    long expected = (long) count * featureSize;
    if (features.length != expected) {
      throw DataErrors.lengthMismatch("features of " + count + " examples x " + featureSize
          + " floats", (int) Math.min(expected, Integer.MAX_VALUE), features.length);
    }
  }

  /**
   * For models of ids ({@code spec.vocabSize() > 0}): channel 0 of every example holds integer ids
   * in 0..vocabSize-1 (token ids with 0 = [PAD], or global feature ids of click logs).
   */
  static void ids(float[] features, int count, ModelSpec spec) {
    if (spec.vocabSize() <= 0) {
      return;
    }
    int perChannel = spec.height() * spec.width();
    for (int i = 0; i < count; i++) {
      int base = i * spec.featureSize();
      for (int j = 0; j < perChannel; j++) {
        float id = features[base + j];
        if (!(id >= 0 && id < spec.vocabSize() && id == Math.rint(id))) {
          throw DataErrors.badRecord("at example " + i + ", position " + j, "id " + id
              + " is not an integer in 0.." + (spec.vocabSize() - 1) + " (vocabSize " + spec.vocabSize() + ")",
              "Encode inputs with the dataset's vocabulary and pass its vocabSize to the model.");
        }
      }
    }
  }

  static void learningRate(float learningRate) {
    if (!(learningRate >= 0) || Float.isInfinite(learningRate)) {
      throw Errors.invalidFlag("learningRate", learningRate, "must be finite and >= 0",
          "Check the learning-rate schedule.");
    }
  }

  static void stateLength(String what, int expected, float[] array) {
    if (array.length != expected) {
      throw DataErrors.lengthMismatch(what, expected, array.length);
    }
  }
}
