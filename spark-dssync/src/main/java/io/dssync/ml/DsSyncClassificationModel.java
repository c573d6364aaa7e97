package io.dssync.ml;

import io.dssync.models.ModelSpec;
import io.dssync.train.TrainingResult;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Model;
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
 * The model {@link DsSyncClassifier} fits: the consensus network (spec and flat state) plus the
 * training summary. {@code transform} predicts on executors, one replica per partition, adding
 * {@code predictionCol} (class index as a double), {@code probabilityCol} (softmax Vector) and
 * {@code rawPredictionCol} (per-class log-probabilities, for BinaryClassificationEvaluator).
 * Saved as Spark ML metadata JSON plus the state as a binary file, on any Hadoop file system.
 */
public final class DsSyncClassificationModel extends Model<DsSyncClassificationModel>
    implements MLWritable, ClassifierColumns {
  private final String uid;
  private final ClassifierParams p;
  private final ModelSpec spec;
  private final float[] state;
  private final TrainingSummary summary;
  /** deepfm's category-index to id mapping; null for other models. */
  private final FieldIds fieldIds;

  DsSyncClassificationModel(String uid, ModelSpec spec, float[] state, TrainingSummary summary,
      FieldIds fieldIds) {
    this.uid = uid;
    this.p = new ClassifierParams(uid);
    this.spec = spec;
    this.state = state;
    this.summary = summary;
    this.fieldIds = fieldIds;
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

  /** deepfm: categories seen in training per field (index >= this predicts as unseen); else null. */
  public int[] fieldCardinalities() {
    return fieldIds == null ? null : fieldIds.cardinalities();
  }

  FieldIds fieldIds() {
    return fieldIds;
  }

  public int numClasses() {
    return spec.numClasses();
  }

  /** Loss and metric history, timings and sync statistics of the training run. */
  public TrainingSummary summary() {
    return summary;
  }

  public DsSyncClassificationModel setFeaturesCol(String value) {
    set(p.featuresCol, value);
    return this;
  }

  public DsSyncClassificationModel setPredictionCol(String value) {
    set(p.predictionCol, value);
    return this;
  }

  public DsSyncClassificationModel setProbabilityCol(String value) {
    set(p.probabilityCol, value);
    return this;
  }

  public DsSyncClassificationModel setRawPredictionCol(String value) {
    set(p.rawPredictionCol, value);
    return this;
  }

  @Override
  public StructType transformSchema(StructType schema) {
    return OutputColumns.append(schema, getFeaturesCol(), getPredictionCol(), getProbabilityCol(),
        getRawPredictionCol());
  }

  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    StructType out = transformSchema(dataset.schema(), true);
    Dataset<Row> frame = dataset.toDF();
    SparkSession spark = frame.sparkSession();
    Broadcast<float[]> shipped = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(state);
    JavaRDD<Row> rows = frame.javaRDD().mapPartitions(new PredictPartition(spec, shipped, fieldIds,
        frame.schema().fieldIndex(getFeaturesCol()), !getPredictionCol().isEmpty(),
        !getProbabilityCol().isEmpty(), !getRawPredictionCol().isEmpty()));
    return spark.createDataFrame(rows, out);
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
