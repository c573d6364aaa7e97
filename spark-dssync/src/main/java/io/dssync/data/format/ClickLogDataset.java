package io.dssync.data.format;

import io.dssync.data.DatasetSplits;
import java.io.Serializable;

/**
 * A click-log dataset: splits of {@code 1 x 1 x F} global feature ids with 0/1 labels
 * ({@code splits.vocabSize()} = total ids) and the layout of the ids per field.
 */
public record ClickLogDataset(DatasetSplits splits, FieldLayout layout) implements Serializable {}
