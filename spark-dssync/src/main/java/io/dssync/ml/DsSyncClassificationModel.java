package io.dssync.ml;

import io.dssync.errors.Errors;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSpec;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.train.TrainingResult;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.classification.ProbabilisticClassificationModel;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * The model {@link DsSyncClassifier} fits, a Spark ML {@code ProbabilisticClassificationModel}: the consensus
 * network (spec and flat state) plus the training summary. {@code transform} predicts on executors, one replica
 * per partition and rows in batches, adding each output column whose name is not empty:
 * <ul>
 *   <li>{@code rawPredictionCol}: the network's logits, one per class; for two classes (0, log-odds of class 1),
 *       so element 1 orders rows like P(1) for BinaryClassificationEvaluator (see {@link ClassScores});
 *   <li>{@code probabilityCol}: the softmax of the raw prediction;
 *   <li>{@code predictionCol}: the class index as a double, the largest raw score's, or with {@code thresholds}
 *       the largest probability / threshold's (Spark's rule).
 * </ul>
 * {@link #predict}, {@link #predictRaw} and {@link #predictProbability} give the same for one row on the driver.
 * Saved as Spark ML metadata JSON plus the state as a binary file, on any Hadoop file system.
 */
public final class DsSyncClassificationModel
    extends ProbabilisticClassificationModel<Vector, DsSyncClassificationModel> implements MLWritable {
  private final String uid;
  private final ClassifierParams p;
  private final ModelSpec spec;
  private final float[] state;
  private final TrainingSummary summary;
  /** deepfm's category-index to id mapping; null for other models. */
  private final FieldIds fieldIds;

  DsSyncClassificationModel(String uid, ModelSpec spec, float[] state, TrainingSummary summary,
      FieldIds fieldIds) {
    this(StageUid.park(uid), spec, state, summary, fieldIds);
  }

  private DsSyncClassificationModel(StageUid.Parked parked, ModelSpec spec, float[] state, TrainingSummary summary,
      FieldIds fieldIds) {
    this.uid = parked.take();
    this.p = new ClassifierParams(uid);
    this.spec = spec;
    this.state = state;
    this.summary = summary;
    this.fieldIds = fieldIds;
    p.setDefaults(this);
  }

  @Override
  public String uid() {
    return uid != null ? uid : StageUid.parked();
  }

  @Override
  public Param<?>[] params() {
    return ClassifierParams.all(p, featuresCol(), labelCol(), predictionCol(), rawPredictionCol(), probabilityCol(),
        thresholds());
  }

  public ModelSpec spec() {
    return spec;
  }

  /** A copy of the flat state (parameters, then BatchNorm statistics). */
  public float[] state() {
    return state.clone();
  }

  /** deepfm: categories seen in training per field (index >= this predicts as unseen); else null. */
  public int[] fieldCardinalities() {
    return fieldIds == null ? null : fieldIds.cardinalities();
  }

  FieldIds fieldIds() {
    return fieldIds;
  }

  @Override
  public int numClasses() {
    return ClassScores.classes(spec.lossKind(), spec.outputSize());
  }

  @Override
  public int numFeatures() {
    return spec.featureSize();
  }

  /** Loss and metric history, timings and sync statistics of the training run. */
  public TrainingSummary summary() {
    return summary;
  }

  // ---- one row on the driver (Spark's predict and predictProbability build on these) ----

  /**
   * The raw prediction of one row's features (as the features column holds them), on the driver; a replica is made
   * per call: for many rows, use {@link #transform}.
   */
  @Override
  public Vector predictRaw(Vector features) {
    requireClassScores();
    int fs = spec.featureSize();
    float[] x = new float[fs];
    PredictPartition.features(features, fieldIds, x, 0, fs);
    try (ModelReplica replica = Replicas.create(spec, OptimizerSpec.sgd(0, 0), 1)) {
      replica.writeState(state);
      return Vectors.dense(ClassScores.raw(replica.predictOutputs(x, 1), 0, spec.outputSize(), spec.lossKind()));
    }
  }

  /** The softmax of the raw prediction, in place when it is dense. */
  @Override
  public Vector raw2probabilityInPlace(Vector rawPrediction) {
    if (rawPrediction instanceof DenseVector dense) {
      ClassScores.softmaxInPlace(dense.values());
      return dense;
    }
    return Vectors.dense(ClassScores.softmaxInPlace(rawPrediction.toArray()));
  }

  // ---- Transformer ----

  /**
   * The input plus the output columns whose names are not empty; the features may be a vector or an array of
   * numbers (Spark's own check takes vectors only).
   */
  @Override
  public StructType transformSchema(StructType schema) {
    return OutputColumns.append(schema, getFeaturesCol(), getPredictionCol(), getProbabilityCol(),
        getRawPredictionCol());
  }

  /** Spark's columns and rules, computed in batches by one replica per partition instead of a UDF per row. */
  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    StructType out = transformSchema(dataset.schema(), true);
    requireClassScores();
    double[] thresholds = isDefined(thresholds()) ? getThresholds() : null;
    if (thresholds != null && thresholds.length != numClasses()) {
      throw Errors.invalidSetting("thresholds", java.util.Arrays.toString(thresholds), "the model tells "
          + numClasses() + " classes apart, so it needs one threshold per class",
          "Set " + numClasses() + " thresholds, or clear them to predict the most likely class.");
    }
    Dataset<Row> frame = dataset.toDF();
    boolean prediction = !getPredictionCol().isEmpty();
    boolean probability = !getProbabilityCol().isEmpty();
    boolean raw = !getRawPredictionCol().isEmpty();
    if (!prediction && !probability && !raw) {
      return frame;
    }
    SparkSession spark = frame.sparkSession();
    Broadcast<float[]> shipped = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(state);
    JavaRDD<Row> rows = frame.javaRDD().mapPartitions(new PredictPartition(spec, shipped, fieldIds,
        frame.schema().fieldIndex(getFeaturesCol()), prediction, probability, raw, thresholds));
    return spark.createDataFrame(rows, out);
  }

  /**
   * A model of another loss can arrive here through {@link #fromTraining} or a {@code dssync train --save-model}
   * directory; its outputs are no class scores, so it fails before any Spark job instead of writing columns that
   * only look like a classifier's.
   */
  private void requireClassScores() {
    LossKind loss = spec.lossKind();
    if (loss != LossKind.CLASSIFICATION && loss != LossKind.BINARY) {
      throw Errors.invalidSetting("loss", loss.flagName(), "this model was trained with a " + loss.flagName()
          + " loss, whose outputs do not score one class per row, so it has no rawPrediction, probability or"
          + " prediction", loss.regression() ? "Wrap the training result with DsSyncRegressionModel.fromTraining."
              : "Predict with a replica of the training result's model (Replicas.create, then"
                  + " ModelReplica.predictProbabilities).");
    }
  }

  /**
   * Spark's, unchanged: Scala declares it twice with covariant return types, which Java sees as a clash unless the
   * class declares it once itself.
   */
  @Override
  @SuppressWarnings("rawtypes")
  public scala.Tuple3 findSummaryModel() {
    return super.findSummaryModel();
  }

  @Override
  public DsSyncClassificationModel copy(ParamMap extra) {
    DsSyncClassificationModel copy = new DsSyncClassificationModel(uid, spec, state, summary, fieldIds);
    return copyValues(copy, extra).setParent(parent());
  }

  @Override
  public MLWriter write() {
    return new ModelPersistence.Writer(this);
  }

  public static MLReader<DsSyncClassificationModel> read() {
    return new ModelPersistence.Reader();
  }

  public static DsSyncClassificationModel load(String path) {
    return read().load(path);
  }

  /**
   * The transformer of a training run's consensus model ({@code DsSyncTrainer.fit}, the {@code dssync train}
   * command), for models of dense inputs or token ids; save it with {@code write().save(path)}.
   */
  public static DsSyncClassificationModel fromTraining(TrainingResult result) {
    return new DsSyncClassificationModel(org.apache.spark.ml.util.Identifiable.randomUID("dsSyncClassifier"),
        result.model().spec(), result.model().state(), TrainingSummary.of(result), null);
  }

  static DsSyncClassificationModel restore(String uid, ModelSpec spec, float[] state, TrainingSummary summary,
      FieldIds fieldIds) {
    return new DsSyncClassificationModel(uid, spec, state, summary, fieldIds);
  }
}
