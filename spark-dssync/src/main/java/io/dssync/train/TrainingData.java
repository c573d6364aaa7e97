package io.dssync.train;

import io.dssync.data.DatasetSplits;
import io.dssync.data.LabeledArrays;
import io.dssync.data.frame.DataFrames;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The training input: a DataFrame with a features column (vector or numeric array) and a label
 * column, the input shape the model expects, the class count, an optional test split that the
 * driver evaluates the consensus model on (null for none), and the id vocabulary size of token or
 * click-log inputs (0 for dense inputs).
 */
public record TrainingData(
    Dataset<Row> frame,
    String featuresCol,
    String labelCol,
    int channels,
    int height,
    int width,
    int numClasses,
    LabeledArrays test,
    int vocabSize) {

  /** Dense inputs (no id vocabulary). */
  public TrainingData(Dataset<Row> frame, String featuresCol, String labelCol, int channels, int height,
      int width, int numClasses, LabeledArrays test) {
    this(frame, featuresCol, labelCol, channels, height, width, numClasses, test, 0);
  }

  public int featureSize() {
    return channels * height * width;
  }

  /** Wraps a loaded dataset: the training split as a DataFrame, the test split kept on the driver. */
  public static TrainingData of(SparkSession spark, DatasetSplits splits, int slices) {
    Dataset<Row> frame = DataFrames.toDataFrame(spark, splits.train(), slices);
    return new TrainingData(frame, "features", "label", splits.channels(), splits.height(),
        splits.width(), splits.train().numClasses(), splits.test(), splits.vocabSize());
  }
}
