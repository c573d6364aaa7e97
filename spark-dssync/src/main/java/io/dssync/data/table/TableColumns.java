package io.dssync.data.table;

import io.dssync.errors.Errors;
import java.io.Serializable;
import java.util.HashSet;
import java.util.List;

/**
 * Which columns of a table hold one example: the feature columns (one vector, array or image
 * column, or several numeric columns assembled in this order), the label column, and optionally
 * the image layout of the flat features (null: {@code 1 x 1 x d}, or the images' own size).
 */
public record TableColumns(List<String> features, String label, ImageLayout layout) implements Serializable {
  public static final String DEFAULT_LABEL = "label";

  public TableColumns {
    if (features == null || features.isEmpty()) {
      throw Errors.invalidSetting("featureColumns", features, "at least one feature column is needed",
          "Name the column that holds the features, or the numeric columns to assemble.");
    }
    features = List.copyOf(features);
    if (label == null || label.isBlank()) {
      throw Errors.invalidSetting("labelColumn", label, "the label column needs a name",
          "Name the column that holds the label (default \"" + DEFAULT_LABEL + "\").");
    }
    if (features.contains(label)) {
      throw Errors.invalidSetting("labelColumn", label, "the label column is also a feature column",
          "Leave the label out of the feature columns.");
    }
    if (new HashSet<>(features).size() != features.size()) {
      throw Errors.invalidSetting("featureColumns", features, "a feature column is named twice",
          "Name each feature column once.");
    }
  }

  /** Features from {@code features}, label from {@code "label"}, no layout. */
  public static TableColumns of(String... features) {
    return new TableColumns(List.of(features), DEFAULT_LABEL, null);
  }

  public TableColumns withLabel(String labelColumn) {
    return new TableColumns(features, labelColumn, layout);
  }

  public TableColumns withLayout(ImageLayout imageLayout) {
    return new TableColumns(features, label, imageLayout);
  }
}
