package io.dssync.train;

import io.dssync.data.DatasetSplits;
import io.dssync.data.LabeledArrays;
import io.dssync.data.frame.DataFrames;
import io.dssync.data.frame.HoldOut;
import io.dssync.errors.Errors;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The training input: a DataFrame with a features column (vector or numeric array) and a label
 * column, the input shape the model expects, the class count, an optional test split that the
 * driver evaluates the consensus model on (null for none), the id vocabulary size of token or
 * click-log inputs (0 for dense inputs), and, when the frame was made from examples already in
 * this JVM, a broadcast of them (else null): the trainer then cuts the shards from it instead of
 * reading the frame's rows back. Instead of a test split, a {@link HoldOut} (else null) has the
 * trainer hold out part of the frame's rows for validation while it cuts the shards.
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
    int vocabSize,
    Broadcast<LabeledArrays> inMemory,
    HoldOut holdOut,
    int labelWidth) {
  public TrainingData {
    labelWidth = Math.max(1, labelWidth);
    if (holdOut != null && (test != null || inMemory != null)) {
      throw Errors.invalidSetting("holdOut", holdOut, "a hold-out is cut from a DataFrame's rows, with no test split"
          + " and no examples in memory", "Pass either a test split or a hold-out, and the DataFrame alone.");
    }
  }

  /** Examples in memory or none, and no hold-out. */
  public TrainingData(Dataset<Row> frame, String featuresCol, String labelCol, int channels, int height,
      int width, int numClasses, LabeledArrays test, int vocabSize, Broadcast<LabeledArrays> inMemory) {
    this(frame, featuresCol, labelCol, channels, height, width, numClasses, test, vocabSize, inMemory, null, 1);
  }

  /** Dense inputs (no id vocabulary). */
  public TrainingData(Dataset<Row> frame, String featuresCol, String labelCol, int channels, int height,
      int width, int numClasses, LabeledArrays test) {
    this(frame, featuresCol, labelCol, channels, height, width, numClasses, test, 0);
  }

  /** A DataFrame only (no examples in this JVM). */
  public TrainingData(Dataset<Row> frame, String featuresCol, String labelCol, int channels, int height,
      int width, int numClasses, LabeledArrays test, int vocabSize) {
    this(frame, featuresCol, labelCol, channels, height, width, numClasses, test, vocabSize, null, null, 1);
  }

  /** The same data with labels of {@code width} real values (regression, multi-label): no classes. */
  public TrainingData withLabelWidth(int width) {
    return new TrainingData(frame, featuresCol, labelCol, channels, height, this.width, 0, test, vocabSize,
        inMemory, holdOut, width);
  }

  public int featureSize() {
    return channels * height * width;
  }

  /** Wraps a loaded dataset: the training split as a DataFrame, the test split kept on the driver. */
  public static TrainingData of(SparkSession spark, DatasetSplits splits, int slices) {
    Broadcast<LabeledArrays> train = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(splits.train());
    Dataset<Row> frame = DataFrames.toDataFrame(spark, train, splits.train().labelWidth(), slices);
    return new TrainingData(frame, "features", "label", splits.channels(), splits.height(), splits.width(),
        splits.train().numClasses(), splits.test(), splits.vocabSize(), train, null, splits.train().labelWidth());
  }
}
