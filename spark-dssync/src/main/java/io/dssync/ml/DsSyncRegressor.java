package io.dssync.ml;

import io.dssync.data.LabeledArrays;
import io.dssync.data.Labels;
import io.dssync.data.frame.DataFrames;
import io.dssync.data.frame.HoldOut;
import io.dssync.errors.Errors;
import io.dssync.metrics.ProgressListener;
import io.dssync.models.LossKind;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.Setting;
import io.dssync.train.SparkConfSettings;
import io.dssync.train.StageCallback;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainerConfigBuilder;
import io.dssync.train.TrainingData;
import io.dssync.train.TrainingResult;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.VectorUDT;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReadable;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A Spark ML estimator (in the shape of Spark's Predictor) that trains a regression with DS-Sync: {@code fit}
 * runs {@link DsSyncTrainer} on {@code featuresCol} / {@code labelCol} and returns a {@link DsSyncRegressionModel}
 * that adds {@code predictionCol}.
 *
 * <p>The label is a number (one output; the prediction is a double) or an ml Vector or array of numbers (as many
 * outputs as it has values; the prediction is a Vector). The model is the built-in {@code model} (default "mlp"),
 * a TorchScript {@code modelFile} or a {@code modelFactory} class; the {@code loss} is mse (default), l1 or huber,
 * and a loss of class labels is refused. Validation rows come from {@code validationFraction} (held out, seeded)
 * or {@code validationIndicatorCol} (rows where the boolean column is true), not both. Every training setting is
 * a param with the setting's name, doc and check, as in {@link DsSyncClassifier}.
 */
public final class DsSyncRegressor extends Estimator<DsSyncRegressionModel> implements DefaultParamsWritable {
  private final String uid;
  private final RegressorParams p;
  private transient ProgressListener progress = ProgressListener.printing();
  private transient StageCallback callback;

  public DsSyncRegressor() {
    this(Identifiable$.MODULE$.randomUID("dssyncRegressor"));
  }

  /** Used by Spark ML persistence and {@link #copy}. */
  public DsSyncRegressor(String uid) {
    this.uid = uid;
    this.p = new RegressorParams(uid);
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

  // ---- column and shape params ----

  public DsSyncRegressor setFeaturesCol(String value) {
    return with(p.featuresCol, value);
  }

  public DsSyncRegressor setLabelCol(String value) {
    return with(p.labelCol, value);
  }

  public DsSyncRegressor setPredictionCol(String value) {
    return with(p.predictionCol, value);
  }

  public DsSyncRegressor setInputShape(int channels, int height, int width) {
    return with(p.inputChannels, channels).with(p.inputHeight, height).with(p.inputWidth, width);
  }

  public DsSyncRegressor setValidationFraction(double value) {
    return with(p.validationFraction, value);
  }

  /** A boolean column whose true rows validate and are not trained on; "" = none. */
  public DsSyncRegressor setValidationIndicatorCol(String value) {
    return with(p.validationIndicatorCol, value);
  }

  /** A JSON-lines metrics file written during fit (any Hadoop file system); "" = none. */
  public DsSyncRegressor setMetricsPath(String value) {
    return with(p.metricsPath, value);
  }

  public String getFeaturesCol() {
    return getOrDefault(p.featuresCol);
  }

  public String getLabelCol() {
    return getOrDefault(p.labelCol);
  }

  public String getPredictionCol() {
    return getOrDefault(p.predictionCol);
  }

  public String getValidationIndicatorCol() {
    return getOrDefault(p.validationIndicatorCol);
  }

  // ---- training settings: typed shortcuts for the common ones, generic access for all ----

  public DsSyncRegressor setWorkers(int value) {
    return setSetting(TrainerConfig.WORKERS, value);
  }

  public DsSyncRegressor setSchedule(String value) {
    return setSetting(TrainerConfig.SCHEDULE, value);
  }

  public DsSyncRegressor setGroupSize(int value) {
    return setSetting(TrainerConfig.GROUP_SIZE, value);
  }

  public DsSyncRegressor setEpochs(int value) {
    return setSetting(TrainerConfig.EPOCHS, value);
  }

  public DsSyncRegressor setBatchSize(int value) {
    return setSetting(TrainerConfig.BATCH_SIZE, value);
  }

  public DsSyncRegressor setStepsPerStage(int value) {
    return setSetting(TrainerConfig.STEPS_PER_STAGE, value);
  }

  public DsSyncRegressor setLearningRate(double value) {
    return setSetting(TrainerConfig.LEARNING_RATE, value);
  }

  public DsSyncRegressor setSeed(long value) {
    return setSetting(TrainerConfig.SEED, value);
  }

  /** A built-in model of dense inputs (default "mlp"). */
  public DsSyncRegressor setModel(String value) {
    return setSetting(TrainerConfig.MODEL, value);
  }

  /** A TorchScript file written by python/dssync_export.py, trained instead of the built-in model. */
  public DsSyncRegressor setModelFile(String value) {
    return setSetting(TrainerConfig.MODEL_FILE, value);
  }

  /** A class implementing io.dssync.models.ModelFactory, trained instead of the built-in model. */
  public DsSyncRegressor setModelFactory(String value) {
    return setSetting(TrainerConfig.MODEL_FACTORY, value);
  }

  /** mse (default), l1 or huber; a loss of class labels is refused when the stage is checked. */
  public DsSyncRegressor setLoss(String value) {
    return setSetting(TrainerConfig.LOSS, value);
  }

  /** Sets any training setting; the setting's own check runs (error names the flag and the rule). */
  public <T> DsSyncRegressor setSetting(Setting<T> setting, T value) {
    return with(settingParam(setting.name()), setting.checked(value));
  }

  /** Sets a training setting from text by name ("groupSize") or flag ("--group-size"). */
  public DsSyncRegressor setSetting(String nameOrFlag, String text) {
    Setting<?> s = TrainerConfigBuilder.find(nameOrFlag);
    return with(settingParam(s.name()), s.parse(text));
  }

  /** The current value (or default) of a training setting. */
  @SuppressWarnings("unchecked")
  public <T> T getSetting(Setting<T> setting) {
    return (T) getOrDefault(settingParam(setting.name()));
  }

  /**
   * The training configuration these params describe, with the settings that the running session's Spark
   * configuration gives ({@code spark.dssync.*}) for the params not set here; checks combinations too.
   */
  public TrainerConfig trainerConfig() {
    return p.toConfig(this, SparkConfSettings.active());
  }

  /** As {@link #trainerConfig()}, with the settings of {@code spark}'s configuration. */
  public TrainerConfig trainerConfig(SparkSession spark) {
    return p.toConfig(this, SparkConfSettings.of(spark));
  }

  /** Where per-stage progress goes on the driver (default: one line per stage on stderr). */
  public DsSyncRegressor setProgress(ProgressListener listener) {
    this.progress = listener;
    return this;
  }

  /**
   * Called on the driver after every stage of {@code fit}; it can stop the fit or set the learning rate
   * ({@link StageCallback}). Not a param: like the progress listener it is code, not saved with the estimator.
   */
  public DsSyncRegressor setCallback(StageCallback stageCallback) {
    this.callback = stageCallback;
    return this;
  }

  // ---- Estimator ----

  /**
   * Checks what a Pipeline checks of every stage before it fits any: the loss is one of real values, the label
   * column holds numbers, the validation params agree with each other and with the input.
   */
  @Override
  public StructType transformSchema(StructType schema) {
    requireRegressionLoss();
    requireLabel(schema);
    FitInput.checkValidation(schema, getValidationIndicatorCol(), (Double) getOrDefault(p.validationFraction));
    return RegressionColumns.append(schema, getFeaturesCol(), getPredictionCol(), labelWidthOf(schema, null));
  }

  @Override
  public DsSyncRegressionModel fit(Dataset<?> dataset) {
    transformSchema(dataset.schema(), true);
    TrainerConfig config = trainerConfig(dataset.sparkSession());
    String featuresCol = getFeaturesCol();
    String labelCol = getLabelCol();
    String indicator = getValidationIndicatorCol();
    Dataset<Row> all = dataset.toDF();
    Dataset<Row> frame = all.select(featuresCol, labelCol);
    LabeledArrays validation = null;
    int featureSize = FitInput.featureSize(frame, featuresCol);
    int labelWidth = labelWidthOf(all.schema(), frame);
    if (!indicator.isEmpty()) {
      Column validates = FitInput.validates(indicator);
      Dataset<Row> held = all.filter(validates).select(featuresCol, labelCol);
      validation = DataFrames.collect(held.toLocalIterator(), 0, 1, featureSize, Labels.values(labelWidth),
          "in the validation rows (" + indicator + " = true)");
      frame = all.filter(functions.not(validates)).select(featuresCol, labelCol);
    }
    InputShape shape = InputShape.derive(featureSize, (Integer) getOrDefault(p.inputChannels),
        (Integer) getOrDefault(p.inputHeight), (Integer) getOrDefault(p.inputWidth));
    double fraction = (Double) getOrDefault(p.validationFraction);
    HoldOut holdOut = fraction > 0 ? new HoldOut(fraction, config.get(TrainerConfig.SEED)) : null;
    TrainingData data = new TrainingData(frame, featuresCol, labelCol, shape.channels(), shape.height(),
        shape.width(), 0, validation, 0, null, holdOut, labelWidth);
    TrainingResult result = EstimatorFit.run(dataset.sparkSession(), config, data, uid, progress, callback,
        getOrDefault(p.metricsPath));
    DsSyncRegressionModel model = new DsSyncRegressionModel(uid, result.model().spec(), result.model().state(),
        TrainingSummary.of(result));
    return copyValues(model, extractParamMap()).setParent(this);
  }

  @Override
  public DsSyncRegressor copy(ParamMap extra) {
    DsSyncRegressor copy = defaultCopy(extra);
    copy.progress = progress;
    copy.callback = callback;
    return copy;
  }

  public static MLReader<DsSyncRegressor> read() {
    return new DefaultParamsReadable<DsSyncRegressor>() {}.read();
  }

  public static DsSyncRegressor load(String path) {
    return read().load(path);
  }

  // ---- helpers ----

  private <T> DsSyncRegressor with(Param<T> param, T value) {
    set(param, value);
    return this;
  }

  @SuppressWarnings("unchecked")
  private <T> Param<T> settingParam(String name) {
    return (Param<T>) p.settings.get(name);
  }

  private void requireRegressionLoss() {
    // The settings as fit will see them, Spark's configuration included, so a Pipeline refuses before any stage.
    String loss = trainerConfig().get(TrainerConfig.LOSS);
    LossKind kind = LossKind.ofFlag(loss);
    if (kind == null || !kind.regression()) {
      throw Errors.invalidSetting("loss", loss, "DsSyncRegressor trains on real-valued labels, so the loss must be"
          + " mse, l1 or huber", "Set loss to mse, l1 or huber, or use DsSyncClassifier for class labels.");
    }
  }

  private void requireLabel(StructType schema) {
    String labelCol = getLabelCol();
    DataType type = FitInput.field(schema, "labelCol", labelCol).dataType();
    boolean numbers = type instanceof VectorUDT || type instanceof ArrayType a && a.elementType() instanceof NumericType;
    if (!(type instanceof NumericType) && !numbers) {
      throw Errors.invalidSetting("labelCol", labelCol, "column '" + labelCol + "' has type " + type.simpleString()
          + ", not a number, a vector or an array of numbers", "Cast the target to a number (e.g. col(\""
          + labelCol + "\").cast(\"double\")); a regression predicts real values, not categories.");
    }
  }

  /**
   * Values per label: 1 for a number; for a vector, the size in its metadata (VectorAssembler writes it), else the
   * first row's when {@code frame} is given, else -1 (unknown until the data is read).
   */
  private int labelWidthOf(StructType schema, Dataset<Row> frame) {
    StructField column = schema.apply(getLabelCol());
    if (column.dataType() instanceof NumericType) {
      return 1;
    }
    int fromMetadata = column.dataType().equals(SQLDataTypes.VectorType())
        ? AttributeGroup.fromStructField(column).size() : -1;
    if (fromMetadata > 0 || frame == null) {
      return fromMetadata;
    }
    return FitInput.size(FitInput.firstRow(frame.select(getLabelCol())).get(0));
  }
}
