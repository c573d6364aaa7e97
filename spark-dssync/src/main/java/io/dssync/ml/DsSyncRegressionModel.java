package io.dssync.ml;

import io.dssync.models.ModelSpec;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.train.TrainingResult;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * The model {@link DsSyncRegressor} fits: the consensus network (spec and flat state) plus the training summary.
 * {@code transform} predicts on executors, one replica per partition, adding {@code predictionCol}: a double for
 * a model of one output, a Vector of {@link #numOutputs} values otherwise. Saved like
 * {@link DsSyncClassificationModel} (see {@link ModelPersistence}), on any Hadoop file system.
 */
public final class DsSyncRegressionModel extends Model<DsSyncRegressionModel> implements MLWritable {
  private final String uid;
  private final RegressorParams p;
  private final ModelSpec spec;
  private final float[] state;
  private final TrainingSummary summary;

  DsSyncRegressionModel(String uid, ModelSpec spec, float[] state, TrainingSummary summary) {
    this.uid = uid;
    this.p = new RegressorParams(uid);
    this.spec = spec;
    this.state = state;
    this.summary = summary;
    p.setDefaults(this);
  }

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public Param<?>[] params() {
    return p.all();
  }

  public ModelSpec spec() {
    return spec;
  }

  /** A copy of the flat state (parameters, then BatchNorm statistics). */
  public float[] state() {
    return state.clone();
  }

  /** Values predicted per row: the label width the model was trained on. */
  public int numOutputs() {
    return spec.labelWidth();
  }

  /** Loss and metric history (R² as the metric), timings and sync statistics of the training run. */
  public TrainingSummary summary() {
    return summary;
  }

  public String getFeaturesCol() {
    return getOrDefault(p.featuresCol);
  }

  public String getPredictionCol() {
    return getOrDefault(p.predictionCol);
  }

  public DsSyncRegressionModel setFeaturesCol(String value) {
    set(p.featuresCol, value);
    return this;
  }

  public DsSyncRegressionModel setPredictionCol(String value) {
    set(p.predictionCol, value);
    return this;
  }

  @Override
  public StructType transformSchema(StructType schema) {
    return RegressionColumns.append(schema, getFeaturesCol(), getPredictionCol(), numOutputs());
  }

  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    StructType out = transformSchema(dataset.schema(), true);
    Dataset<Row> frame = dataset.toDF();
    if (getPredictionCol().isEmpty()) {
      return frame;
    }
    SparkSession spark = frame.sparkSession();
    Broadcast<float[]> shipped = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(state);
    JavaRDD<Row> rows = frame.javaRDD().mapPartitions(new RegressionPredictPartition(spec, shipped,
        frame.schema().fieldIndex(getFeaturesCol())));
    return spark.createDataFrame(rows, out);
  }

  /**
   * The model's outputs for one row's features, on the driver (a replica is made per call: for many rows, use
   * {@link #transform}).
   */
  public Vector predict(Vector features) {
    int fs = spec.featureSize();
    float[] x = new float[fs];
    FeatureValues.copy(features, x, 0, fs);
    try (ModelReplica replica = Replicas.create(spec, OptimizerSpec.sgd(0, 0), 1)) {
      replica.writeState(state);
      float[] y = replica.predictProbabilities(x, 1);
      double[] out = new double[numOutputs()];
      for (int j = 0; j < out.length; j++) {
        out[j] = y[j];
      }
      return Vectors.dense(out);
    }
  }

  @Override
  public DsSyncRegressionModel copy(ParamMap extra) {
    DsSyncRegressionModel copy = new DsSyncRegressionModel(uid, spec, state, summary);
    return copyValues(copy, extra).setParent(parent());
  }

  @Override
  public MLWriter write() {
    return new ModelPersistence.Writer(this, spec, state, summary, null);
  }

  public static MLReader<DsSyncRegressionModel> read() {
    return new ModelPersistence.RegressionReader();
  }

  public static DsSyncRegressionModel load(String path) {
    return read().load(path);
  }

  /**
   * The transformer of a regression's consensus model ({@code DsSyncTrainer.fit} with an mse, l1 or huber loss, or
   * the {@code dssync train} command); save it with {@code write().save(path)}.
   */
  public static DsSyncRegressionModel fromTraining(TrainingResult result) {
    if (!result.model().spec().lossKind().regression()) {
      throw io.dssync.errors.Errors.invalidSetting("loss", result.model().spec().lossKind().flagName(),
          "a regression model needs a result trained with mse, l1 or huber",
          "Use DsSyncClassificationModel.fromTraining for class losses.");
    }
    return new DsSyncRegressionModel(Identifiable.randomUID("dssyncRegressor"), result.model().spec(),
        result.model().state(), TrainingSummary.of(result));
  }

  static DsSyncRegressionModel restore(String uid, ModelSpec spec, float[] state, TrainingSummary summary) {
    return new DsSyncRegressionModel(uid, spec, state, summary);
  }
}
