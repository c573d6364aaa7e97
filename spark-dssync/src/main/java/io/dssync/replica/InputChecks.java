package io.dssync.replica;

import io.dssync.errors.Errors;
import io.dssync.models.ModelSpec;

/** Validation of the arrays handed to a replica, with messages that name the bad value. */
final class InputChecks {
  private InputChecks() {}

  static void batch(float[] features, int[] labels, int count, int featureSize, int numClasses) {
    if (count < 0) {
      throw Errors.invalidSetting("batch size", count, "must be >= 0", "Pass the number of examples.");
    }
    long expected = (long) count * featureSize;
    if (features.length != expected) {
      throw Errors.lengthMismatch("features of " + count + " examples x " + featureSize
          + " floats", (int) Math.min(expected, Integer.MAX_VALUE), features.length);
    }
    if (labels.length != count) {
      throw Errors.lengthMismatch("labels of " + count + " examples", count, labels.length);
    }
    for (int i = 0; i < count; i++) {
      int label = labels[i];
      if (label < 0 || label >= numClasses) {
        throw Errors.badRecord("at index " + i, "label " + label + " is outside 0.."
            + (numClasses - 1), "Check that the model's numClasses matches the dataset's labels.");
      }
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
          throw Errors.badRecord("at example " + i + ", position " + j, "id " + id
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
      throw Errors.lengthMismatch(what, expected, array.length);
    }
  }
}
