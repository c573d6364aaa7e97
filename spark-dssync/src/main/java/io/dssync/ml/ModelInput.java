package io.dssync.ml;

import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import io.dssync.models.Models;
import java.util.Arrays;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;

/**
 * How the features column feeds the chosen model family: the input shape, the id vocabulary, and
 * for deepfm the mapping of per-field category indices to global ids (null otherwise).
 * <ul>
 *   <li>dense models (mlp, cnn, wrn): {@link InputShape#derive}, no vocabulary;
 *   <li>bert-cls: a vector of L token ids is 1 x 1 x L; vocabSize from the param, else largest id + 1;
 *   <li>deepfm: a vector of F category indices is 1 x 1 x F; ids and vocabulary from {@link FieldIds};
 *   <li>bert-mlm is refused: masked-LM pre-training has no per-row label or prediction.
 * </ul>
 */
record ModelInput(InputShape shape, int vocabSize, FieldIds fieldIds) {

  static ModelInput derive(String model, Dataset<Row> frame, String featuresCol, int featureSize,
      int channels, int height, int width, int vocabSize) {
    Models.Input kind = Models.input(model);
    switch (kind) {
      case DENSE -> {
        return new ModelInput(InputShape.derive(featureSize, channels, height, width), 0, null);
      }
      case TOKENS -> {
        InputShape shape = sequence(model, featureSize, channels, height, width);
        int vocab = vocabSize > 0 ? vocabSize : largestId(largest(frame, featuresCol, featureSize)) + 1;
        return new ModelInput(shape, vocab, null);
      }
      case FIELD_IDS -> {
        InputShape shape = sequence(model, featureSize, channels, height, width);
        FieldIds ids = FieldIds.fromLargest(largest(frame, featuresCol, featureSize));
        return new ModelInput(shape, ids.vocabSize(), ids);
      }
      case MASKED_TOKENS -> throw Errors.invalidSetting("model", model,
          "masked-LM pre-training has no per-row label or prediction, so it is not a Spark ML classifier",
          "Pre-train with 'dssync train --preset bert-mlm', or fit bert-cls on labelled sequences.");
      default -> throw new IllegalStateException(kind.name());
    }
  }

  /** Ids and indices are one row of values: 1 x 1 x size (explicit shape params must say the same). */
  private static InputShape sequence(String model, int featureSize, int c, int h, int w) {
    boolean derived = c == 0 && h == 0 && w == 0;
    if (!derived && !(c <= 1 && h == 1 && w == featureSize)) {
      throw Errors.invalidSetting("inputChannels x inputHeight x inputWidth", c + " x " + h + " x " + w,
          "model " + model + " reads one row of " + featureSize + " ids (1 x 1 x " + featureSize + ")",
          "Leave the shape params at 0 for " + model + ".");
    }
    return new InputShape(1, 1, featureSize);
  }

  private static int largestId(double[] largest) {
    double max = Arrays.stream(largest).max().orElse(-1);
    if (!(max >= 1) || max >= Integer.MAX_VALUE) {
      throw DataErrors.badRecord("in the features column", "the largest token id is " + max,
          "Token ids must be whole numbers >= 0 with more than one distinct id; or set vocabSize.");
    }
    return (int) Math.floor(max);
  }

  /** The largest value at each position of the features column, over all rows (one Spark job). */
  static double[] largest(Dataset<Row> frame, String featuresCol, int size) {
    double[] zero = new double[size];
    Arrays.fill(zero, Double.NEGATIVE_INFINITY);
    Function2<double[], Row, double[]> add = (acc, row) -> {
      float[] values = new float[size];
      FeatureValues.copy(row.get(0), values, 0, size);
      for (int j = 0; j < size; j++) {
        acc[j] = Math.max(acc[j], values[j]);
      }
      return acc;
    };
    Function2<double[], double[], double[]> merge = (a, b) -> {
      for (int j = 0; j < size; j++) {
        a[j] = Math.max(a[j], b[j]);
      }
      return a;
    };
    return frame.select(featuresCol).javaRDD().aggregate(zero, add, merge);
  }

  /** The training frame (features, label) with deepfm's category indices replaced by global ids. */
  Dataset<Row> encode(Dataset<Row> frame) {
    if (fieldIds == null) {
      return frame;
    }
    FieldIds ids = fieldIds;
    int fields = ids.fields();
    Function<Row, Row> toIds = row -> {
      float[] values = new float[fields];
      FeatureValues.copy(row.get(0), values, 0, fields);
      ids.encode(values, 0);
      double[] out = new double[fields];
      for (int j = 0; j < fields; j++) {
        out[j] = values[j];
      }
      return RowFactory.create(Vectors.dense(out), row.get(1));
    };
    StructType schema = new StructType()
        .add(frame.schema().fields()[0].name(), SQLDataTypes.VectorType(), false)
        .add(frame.schema().fields()[1]);
    return frame.sparkSession().createDataFrame(frame.javaRDD().map(toIds), schema);
  }
}
