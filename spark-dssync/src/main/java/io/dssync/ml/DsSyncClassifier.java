package io.dssync.ml;

import io.dssync.data.Labels;
import io.dssync.data.LabeledArrays;
import io.dssync.data.frame.DataFrames;
import io.dssync.data.frame.HoldOut;
import io.dssync.errors.DataErrors;
import io.dssync.errors.Errors;
import io.dssync.metrics.ProgressListener;
import io.dssync.models.LossKind;
import io.dssync.train.DsSyncTrainer;
import io.dssync.train.ModelFiles;
import io.dssync.train.Setting;
import io.dssync.train.SparkConfSettings;
import io.dssync.train.StageCallback;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainerConfigBuilder;
import io.dssync.train.TrainingData;
import io.dssync.train.TrainingResult;
import org.apache.spark.ml.attribute.Attribute;
import org.apache.spark.ml.attribute.NominalAttribute;
import org.apache.spark.ml.classification.ProbabilisticClassifier;
import org.apache.spark.ml.linalg.Vector;
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
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;

/**
 * A Spark ML {@code ProbabilisticClassifier} that trains a network with DS-Sync: {@code fit} runs
 * {@link DsSyncTrainer} on the {@code featuresCol} / {@code labelCol} columns and returns a
 * {@link DsSyncClassificationModel}, which adds {@code rawPredictionCol} (the network's logits),
 * {@code probabilityCol} (their softmax) and {@code predictionCol} (honouring {@code thresholds}), so it goes
 * wherever Spark takes a classifier: Pipeline, CrossValidator, the classification evaluators.
 *
 * <p>Features: an ml Vector or an array of numbers, read by the model's family: dense values (mlp, cnn, wrn, a
 * TorchScript file or a factory's model), token ids (bert-cls, with {@code vocabSize}) or categorical indices
 * (deepfm, mapped to global ids by {@link FieldIds}); see {@link ModelInput}. Labels: class indices 0..n-1.
 *
 * <p>The model is the built-in {@code model} (default "cnn"), a TorchScript {@code modelFile} (with
 * {@code modelInit}) or a {@code modelFactory} class. The {@code loss} is auto (the model's own: cross-entropy, or
 * binary for deepfm), cross-entropy or binary; a loss of real values is refused. Validation rows come from
 * {@code validationFraction} (held out, seeded) or {@code validationIndicatorCol} (rows where the boolean column is
 * true), not both. {@code numClasses} is derived from StringIndexer metadata or the largest label when 0, and
 * every training setting is a param with the setting's name, doc, default and check ({@code workers},
 * {@code schedule}, {@code groupSize}, ...; see {@code dssync help}). Saved and loaded with Spark ML persistence.
 */
public final class DsSyncClassifier
    extends ProbabilisticClassifier<Vector, DsSyncClassifier, DsSyncClassificationModel>
    implements DefaultParamsWritable {
  private final String uid;
  private final ClassifierParams p;
  private transient ProgressListener progress = ProgressListener.printing();
  private transient StageCallback callback;

  public DsSyncClassifier() {
    this(Identifiable$.MODULE$.randomUID("dssync"));
  }

  /** Used by Spark ML persistence and {@link #copy}. */
  public DsSyncClassifier(String uid) {
    this(StageUid.park(uid));
  }

  private DsSyncClassifier(StageUid.Parked parked) {
    this.uid = parked.take();
    this.p = new ClassifierParams(uid);
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

  // ---- shape and validation params (the column setters are Spark's) ----

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

  /** A boolean column whose true rows validate and are not trained on; "" = none. */
  public DsSyncClassifier setValidationIndicatorCol(String value) {
    return with(p.validationIndicatorCol, value);
  }

  public String getValidationIndicatorCol() {
    return getOrDefault(p.validationIndicatorCol);
  }

  /** A JSON-lines metrics file written during fit (any Hadoop file system); "" = none. */
  public DsSyncClassifier setMetricsPath(String value) {
    return with(p.metricsPath, value);
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

  /** A built-in model (default "cnn"). */
  public DsSyncClassifier setModel(String value) {
    return setSetting(TrainerConfig.MODEL, value);
  }

  /** A TorchScript file written by python/dssync_export.py, trained instead of the built-in model. */
  public DsSyncClassifier setModelFile(String value) {
    return setSetting(TrainerConfig.MODEL_FILE, value);
  }

  /** Where a model file's replicas start: "file" (its own weights, the default) or "seeded". */
  public DsSyncClassifier setModelInit(String value) {
    return setSetting(TrainerConfig.MODEL_INIT, value);
  }

  /** A class implementing io.dssync.models.ModelFactory, trained instead of the built-in model. */
  public DsSyncClassifier setModelFactory(String value) {
    return setSetting(TrainerConfig.MODEL_FACTORY, value);
  }

  /** auto (the model's own; default), cross-entropy or binary; a loss of real values is refused. */
  public DsSyncClassifier setLoss(String value) {
    return setSetting(TrainerConfig.LOSS, value);
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
  public DsSyncClassifier setProgress(ProgressListener listener) {
    this.progress = listener;
    return this;
  }

  /**
   * Called on the driver after every stage of {@code fit}; it can stop the fit or set the learning rate
   * ({@link StageCallback}). Not a param: like the progress listener it is code, not saved with the estimator.
   */
  public DsSyncClassifier setCallback(StageCallback stageCallback) {
    this.callback = stageCallback;
    return this;
  }

  // ---- Estimator ----

  /**
   * Checks what a Pipeline checks of every stage before it fits any: the loss is one of classes, the features are a
   * vector or an array of numbers (Spark's own check takes vectors only), the label is a number, the validation
   * params agree with each other and with the input; appends the output columns whose names are not empty.
   */
  @Override
  public StructType transformSchema(StructType schema) {
    // The settings as fit will see them, Spark's configuration included, so a Pipeline refuses before any stage.
    requireClassLoss(trainerConfig().get(TrainerConfig.LOSS));
    String labelCol = getLabelCol();
    DataType label = FitInput.field(schema, "labelCol", labelCol).dataType();
    if (!(label instanceof NumericType)) {
      throw Errors.invalidSetting("labelCol", labelCol, "column '" + labelCol + "' has type " + label.simpleString()
          + ", not a number", "Index the classes first (StringIndexer turns categories into 0, 1, ...).");
    }
    FitInput.checkValidation(schema, getValidationIndicatorCol(), (Double) getOrDefault(p.validationFraction));
    return OutputColumns.append(schema, getFeaturesCol(), getPredictionCol(), getProbabilityCol(),
        getRawPredictionCol());
  }

  /** Called by Spark's {@code fit} after {@link #transformSchema}, with the label cast to double. */
  @Override
  public DsSyncClassificationModel train(Dataset<?> dataset) {
    TrainerConfig config = trainerConfig(dataset.sparkSession());
    if (config.loss() == null && config.hasOwnModel()) {
      // auto: a file with its own dssync_loss, or a factory's regression, is found out before any Spark job.
      requireClassLoss(ModelFiles.source(config, dataset.sparkSession().sparkContext().hadoopConfiguration())
          .defaultLoss().flagName());
    }
    String featuresCol = getFeaturesCol();
    String labelCol = getLabelCol();
    String indicator = getValidationIndicatorCol();
    Dataset<Row> all = dataset.toDF();
    Dataset<Row> frame = all.select(featuresCol, labelCol);
    Dataset<Row> held = null;
    if (!indicator.isEmpty()) {
      Column validates = FitInput.validates(indicator);
      held = all.filter(validates).select(featuresCol, labelCol);
      frame = all.filter(functions.not(validates)).select(featuresCol, labelCol);
    }
    int featureSize = FitInput.featureSize(frame, featuresCol);
    ModelInput input = ModelInput.derive(config.get(TrainerConfig.MODEL), frame, featuresCol, featureSize,
        (Integer) getOrDefault(p.inputChannels), (Integer) getOrDefault(p.inputHeight),
        (Integer) getOrDefault(p.inputWidth), (Integer) getOrDefault(p.vocabSize));
    InputShape shape = input.shape();
    int classes = numClasses(all);
    frame = input.encode(frame);
    LabeledArrays validation = held == null ? null : DataFrames.collect(input.encode(held).toLocalIterator(), 0, 1,
        featureSize, Labels.classes(classes), "in the validation rows (" + indicator + " = true)");
    double fraction = (Double) getOrDefault(p.validationFraction);
    // Held out while the trainer cuts the shards: one read of the rows, where randomSplit read them
    // once per split and sorted every partition.
    HoldOut holdOut = fraction > 0 ? new HoldOut(fraction, config.get(TrainerConfig.SEED)) : null;
    TrainingData data = new TrainingData(frame, featuresCol, labelCol, shape.channels(), shape.height(),
        shape.width(), classes, validation, input.vocabSize(), null, holdOut, 1);
    TrainingResult result = EstimatorFit.run(dataset.sparkSession(), config, data, uid, progress, callback,
        getOrDefault(p.metricsPath));
    return new DsSyncClassificationModel(uid, result.model().spec(), result.model().state(),
        TrainingSummary.of(result), input.fieldIds());
  }

  @Override
  public DsSyncClassifier copy(ParamMap extra) {
    DsSyncClassifier copy = defaultCopy(extra);
    copy.progress = progress;
    copy.callback = callback;
    return copy;
  }

  public static MLReader<DsSyncClassifier> read() {
    return new DefaultParamsReadable<DsSyncClassifier>() {}.read();
  }

  public static DsSyncClassifier load(String path) {
    return read().load(path);
  }

  // ---- helpers ----

  private <T> DsSyncClassifier with(Param<T> param, T value) {
    set(param, value);
    return this;
  }

  @SuppressWarnings("unchecked")
  private <T> Param<T> settingParam(String name) {
    return (Param<T>) p.settings.get(name);
  }

  /** auto, or a loss whose labels are one class per row and whose outputs score the classes. */
  private static void requireClassLoss(String loss) {
    if (loss.equals("auto")) {
      return;
    }
    LossKind kind = LossKind.ofFlag(loss);
    if (kind == LossKind.CLASSIFICATION || kind == LossKind.BINARY) {
      return;
    }
    String fix = kind != null && kind.regression()
        ? "Set loss to cross-entropy or binary, or use DsSyncRegressor for real-valued labels."
        : "Set loss to cross-entropy or binary (or auto); train " + loss + " models with 'dssync train --loss "
            + loss + "'.";
    throw Errors.invalidSetting("loss", loss, "DsSyncClassifier predicts one class per row, so the loss must be"
        + " cross-entropy or binary (a " + loss + " model does not score classes)", fix);
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
      throw DataErrors.badRecord("in the training input", "it has no labels", "Fit on a non-empty DataFrame");
    }
    return (int) Math.floor(((Number) max.get(0)).doubleValue()) + 1;
  }
}
