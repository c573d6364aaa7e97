package io.dssync.ml;

import io.dssync.data.frame.DataFrames;
import io.dssync.data.frame.HoldOut;
import io.dssync.errors.Errors;
import io.dssync.metrics.MetricsLog;
import io.dssync.metrics.ProgressListener;
import io.dssync.metrics.SparkUiMetrics;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainingData;
import io.dssync.train.TrainingResult;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.attribute.Attribute;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.attribute.NominalAttribute;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReadable;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.ml.util.Identifiable$;

/**
 * A Spark ML estimator that trains a classifier with DS-Sync: {@code fit} runs
 * {@link DsSyncTrainer} on the {@code featuresCol} / {@code labelCol} columns and returns a
 * {@link DsSyncClassificationModel} that adds {@code predictionCol} and {@code probabilityCol}.
 *
 * <p>Every model family: dense features (mlp, cnn, wrn), token ids (bert-cls, with {@code vocabSize})
 * and categorical indices (deepfm, mapped to global ids by {@link FieldIds}); see {@link ModelInput}.
 *
 * <p>Params: the column names, the input shape ({@code inputChannels/Height/Width}, derived when 0),
 * {@code numClasses} (derived from StringIndexer metadata or the largest label when 0),
 * {@code vocabSize} (bert-cls; derived when 0),
 * {@code validationFraction}, {@code metricsPath}, and one param per training setting with the
 * setting's name, doc, default and check ({@code workers}, {@code schedule}, {@code groupSize},
 * ...; see {@code dssync help}). Saved and loaded with Spark ML persistence.
 */
public final class DsSyncClassifier extends Estimator<DsSyncClassificationModel>
    implements DefaultParamsWritable, ClassifierColumns {
  private final String uid;
  private final ClassifierParams p;
  private transient ProgressListener progress = ProgressListener.printing();

  public DsSyncClassifier() {
    this(Identifiable$.MODULE$.randomUID("dssync"));
  }

  /** Used by Spark ML persistence and {@link #copy}. */
  public DsSyncClassifier(String uid) {
    this.uid = uid;
    this.p = new ClassifierParams(uid);
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

  // ---- column and shape params, in Spark ML style ----

  public DsSyncClassifier setFeaturesCol(String value) {
    return with(p.featuresCol, value);
  }

  public DsSyncClassifier setLabelCol(String value) {
    return with(p.labelCol, value);
  }

  public DsSyncClassifier setPredictionCol(String value) {
    return with(p.predictionCol, value);
  }

  public DsSyncClassifier setProbabilityCol(String value) {
    return with(p.probabilityCol, value);
  }

  public DsSyncClassifier setRawPredictionCol(String value) {
    return with(p.rawPredictionCol, value);
  }

  /** Token ids of bert-cls: the number of distinct ids (0 = largest id in the data + 1). */
  public DsSyncClassifier setVocabSize(int value) {
    return with(p.vocabSize, value);
  }

  public DsSyncClassifier setInputShape(int channels, int height, int width) {
    return with(p.inputChannels, channels).with(p.inputHeight, height).with(p.inputWidth, width);
  }

  public DsSyncClassifier setNumClasses(int value) {
    return with(p.numClasses, value);
  }

  public DsSyncClassifier setValidationFraction(double value) {
    return with(p.validationFraction, value);
  }

  /** A JSON-lines metrics file written during fit (any Hadoop file system); "" = none. */
  public DsSyncClassifier setMetricsPath(String value) {
    return with(p.metricsPath, value);
  }

  public String getLabelCol() {
    return getOrDefault(p.labelCol);
  }

  // ---- training settings: typed shortcuts for the common ones, generic access for all ----

  public DsSyncClassifier setWorkers(int value) {
    return setSetting(TrainerConfig.WORKERS, value);
  }

  public DsSyncClassifier setSchedule(String value) {
    return setSetting(TrainerConfig.SCHEDULE, value);
  }

  public DsSyncClassifier setGroupSize(int value) {
    return setSetting(TrainerConfig.GROUP_SIZE, value);
  }

  public DsSyncClassifier setEpochs(int value) {
    return setSetting(TrainerConfig.EPOCHS, value);
  }

  public DsSyncClassifier setBatchSize(int value) {
    return setSetting(TrainerConfig.BATCH_SIZE, value);
  }

  public DsSyncClassifier setStepsPerStage(int value) {
    return setSetting(TrainerConfig.STEPS_PER_STAGE, value);
  }

  public DsSyncClassifier setLearningRate(double value) {
    return setSetting(TrainerConfig.LEARNING_RATE, value);
  }

  public DsSyncClassifier setModel(String value) {
    return setSetting(TrainerConfig.MODEL, value);
  }

  public DsSyncClassifier setSeed(long value) {
    return setSetting(TrainerConfig.SEED, value);
  }

  /** Sets any training setting; the setting's own check runs (error names the flag and the rule). */
  public <T> DsSyncClassifier setSetting(Setting<T> setting, T value) {
    return with(settingParam(setting.name()), setting.checked(value));
  }

  /** Sets a training setting from text by name ("groupSize") or flag ("--group-size"). */
  public DsSyncClassifier setSetting(String nameOrFlag, String text) {
    Setting<?> s = TrainerConfig.Builder.find(nameOrFlag);
    return with(settingParam(s.name()), s.parse(text));
  }

  /** The current value (or default) of a training setting. */
  @SuppressWarnings("unchecked")
  public <T> T getSetting(Setting<T> setting) {
    return (T) getOrDefault(settingParam(setting.name()));
  }

  /** The training configuration these params describe (checks combinations too). */
  public TrainerConfig trainerConfig() {
    return p.toConfig(this);
  }

  /** Where per-stage progress goes on the driver (default: one line per stage on stderr). */
  public DsSyncClassifier setProgress(ProgressListener listener) {
    this.progress = listener;
    return this;
  }

  // ---- Estimator ----

  @Override
  public StructType transformSchema(StructType schema) {
    DataFrames.requireColumns(schema, getFeaturesCol(), getLabelCol());
    return OutputColumns.append(schema, getFeaturesCol(), getPredictionCol(), getProbabilityCol(),
        getRawPredictionCol());
  }

  @Override
  public DsSyncClassificationModel fit(Dataset<?> dataset) {
    transformSchema(dataset.schema(), true);
    TrainerConfig config = trainerConfig();
    Dataset<Row> frame = dataset.toDF().select(getFeaturesCol(), getLabelCol());
    int featureSize = featureSize(frame);
    ModelInput input = ModelInput.derive(config.get(TrainerConfig.MODEL), frame, getFeaturesCol(), featureSize,
        (Integer) getOrDefault(p.inputChannels), (Integer) getOrDefault(p.inputHeight),
        (Integer) getOrDefault(p.inputWidth), (Integer) getOrDefault(p.vocabSize));
    InputShape shape = input.shape();
    int classes = numClasses(frame);
    frame = input.encode(frame);
    double fraction = (Double) getOrDefault(p.validationFraction);
    // Held out while the trainer cuts the shards: one read of the rows, where randomSplit read them
    // once per split and sorted every partition.
    HoldOut holdOut = fraction > 0 ? new HoldOut(fraction, config.get(TrainerConfig.SEED)) : null;
    TrainingData data = new TrainingData(frame, getFeaturesCol(), getLabelCol(), shape.channels(),
        shape.height(), shape.width(), classes, null, input.vocabSize(), null, holdOut, 1);
    ProgressListener listener = progress.andThen(new SparkUiMetrics(dataset.sparkSession().sparkContext()));
    String metricsPath = getOrDefault(p.metricsPath);
    try (MetricsLog log = metricsPath.isEmpty() ? null
        : MetricsLog.open(metricsPath, config.runHeader(uid),
            dataset.sparkSession().sparkContext().hadoopConfiguration())) {
      TrainingResult result = new DsSyncTrainer(dataset.sparkSession(), config)
          .withProgress(log == null ? listener : listener.andThen(log))
          .fit(data);
      DsSyncClassificationModel model = new DsSyncClassificationModel(uid, result.model().spec(),
          result.model().state(), TrainingSummary.of(result), input.fieldIds());
      return copyValues(model, extractParamMap()).setParent(this);
    }
  }

  @Override
  public DsSyncClassifier copy(ParamMap extra) {
    DsSyncClassifier copy = defaultCopy(extra);
    copy.progress = progress;
    return copy;
  }

  public static MLReader<DsSyncClassifier> read() {
    return new DefaultParamsReadable<DsSyncClassifier>() {}.read();
  }

  public static DsSyncClassifier load(String path) {
    return read().load(path);
  }

  // ---- helpers ----

  @SuppressWarnings("unchecked")
  private <T> DsSyncClassifier with(Param<T> param, T value) {
    set(param, value);
    return this;
  }

  @SuppressWarnings("unchecked")
  private <T> Param<T> settingParam(String name) {
    return (Param<T>) p.settings.get(name);
  }

  /**
   * From the vector size in the column metadata (VectorAssembler writes it), else the first row.
   * Only a vector column has such metadata; Spark's reader of it fails a bare "requirement failed"
   * on an array column.
   */
  private int featureSize(Dataset<Row> frame) {
    StructField column = frame.schema().apply(getFeaturesCol());
    int fromMetadata = column.dataType().equals(SQLDataTypes.VectorType())
        ? AttributeGroup.fromStructField(column).size() : -1;
    if (fromMetadata > 0) {
      return fromMetadata;
    }
    Row[] first = (Row[]) frame.select(getFeaturesCol()).limit(1).collect();
    if (first.length == 0) {
      throw Errors.badRecord("in the training input", "it has no rows", "Fit on a non-empty DataFrame");
    }
    Object value = first[0].get(0);
    if (value instanceof Vector v) {
      return v.size();
    }
    return first[0].getList(0).size();
  }

  private int numClasses(Dataset<Row> frame) {
    int explicit = (Integer) getOrDefault(p.numClasses);
    if (explicit > 0) {
      return explicit;
    }
    Attribute label = Attribute.fromStructField(frame.schema().apply(getLabelCol()));
    if (label instanceof NominalAttribute nominal && nominal.getNumValues().isDefined()) {
      return (Integer) nominal.getNumValues().get();
    }
    Row max = frame.agg(functions.max(functions.col(getLabelCol()))).head();
    if (max.isNullAt(0)) {
      throw Errors.badRecord("in the training input", "it has no labels", "Fit on a non-empty DataFrame");
    }
    return (int) Math.floor(((Number) max.get(0)).doubleValue()) + 1;
  }
}
