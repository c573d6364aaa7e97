package io.dssync.data;

import io.dssync.errors.Errors;
import java.io.Serializable;

/**
 * What a label is: {@code width} floats per example, and for class tasks ({@code numClasses > 0}) one
 * float holding an exact class index in 0..numClasses-1. Regression and multi-label tasks have
 * {@code numClasses == 0}: any finite values. Class indices stay exact in floats up to 2^24.
 */
public record Labels(int width, int numClasses) implements Serializable {
  public Labels {
    if (width < 1) {
      throw Errors.invalidSetting("label width", width, "must be at least 1", "Give every example a label.");
    }
    if (numClasses > 0 && width != 1) {
      throw Errors.invalidSetting("label width", width, "class labels are one index per example",
          "Use a loss for label vectors (multi-label, mse, l1, huber) or one class index per row.");
    }
  }

  /** One class index per example, in 0..numClasses-1. */
  public static Labels classes(int numClasses) {
    return new Labels(1, numClasses);
  }

  /** {@code width} real values per example (regression, multi-label targets). */
  public static Labels values(int width) {
    return new Labels(width, 0);
  }

  public boolean isClasses() {
    return numClasses > 0;
  }

  /** Why {@code value} cannot be label element {@code index}, or null when it can. */
  public String problem(double value, int index) {
    if (isClasses()) {
      return value >= 0 && value < numClasses && value == Math.rint(value) ? null
          : "the label " + format(value) + " is not an integer in 0.." + (numClasses - 1);
    }
    return Float.isFinite((float) value) ? null
        : "label value " + index + " is " + value + " (not finite as a float)";
  }

  /** The fix that goes with {@link #problem}. */
  public String fix() {
    return isClasses() ? "Index labels to 0.." + (numClasses - 1) + " or raise numClasses"
        : "Drop or repair rows with NaN or infinite labels";
  }

  /** A label for messages: an integral value without a fraction ("2", not "2.0"). */
  public static String format(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
  }
}
