package io.dssync.ml;

import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;

/**
 * The Spark ML params of {@link DsSyncRegressor} and {@link DsSyncRegressionModel}, owned by one stage uid:
 * the columns of a regression (no probability columns, a validation indicator column), the input shape, and
 * one param per {@link TrainerConfig} setting built by {@link ClassifierParams}' helpers, so a setting's doc,
 * default and check are the same in both estimators. Two defaults differ from the settings' own, because a
 * regression needs them: {@code model} "mlp" (the built-in dense model) and {@code loss} "mse".
 */
final class RegressorParams implements Serializable {
  static final String DEFAULT_MODEL = "mlp";
  static final String DEFAULT_LOSS = "mse";

  final Param<String> featuresCol;
  final Param<String> labelCol;
  final Param<String> predictionCol;
  final IntParam inputChannels;
  final IntParam inputHeight;
  final IntParam inputWidth;
  final DoubleParam validationFraction;
  final Param<String> validationIndicatorCol;
  final Param<String> metricsPath;
  /** TrainerConfig setting name to its param, in TrainerConfig.ALL order. */
  final Map<String, Param<?>> settings;

  RegressorParams(String uid) {
    featuresCol = new Param<>(uid, "featuresCol", "features column name (ml Vector or array of numbers)",
        ClassifierParams.nonEmpty());
    labelCol = new Param<>(uid, "labelCol",
        "label column name: a number, or an ml Vector or array of numbers for several outputs",
        ClassifierParams.nonEmpty());
    predictionCol = new Param<>(uid, "predictionCol",
        "prediction column name: a double for one output, a Vector for several (empty: not written)",
        ClassifierParams.anyString());
    inputChannels = ClassifierParams.shape(uid, "inputChannels", "model input channels C; 0 = derive (1)");
    inputHeight = ClassifierParams.shape(uid, "inputHeight",
        "model input height H; 0 = derive (sqrt of the feature size when it is a square, else the feature size)");
    inputWidth = ClassifierParams.shape(uid, "inputWidth", "model input width W; 0 = derive (like inputHeight, else 1)");
    validationFraction = new DoubleParam(uid, "validationFraction",
        "fraction of the input held out (seeded) to evaluate the consensus model between stages;"
            + " 0 = no validation metrics (unless validationIndicatorCol is set)",
        ClassifierParams.fraction());
    validationIndicatorCol = ClassifierParams.validationIndicatorCol(uid);
    metricsPath = new Param<>(uid, "metricsPath",
        "JSON-lines metrics file written during fit, on any Hadoop file system (empty: none)",
        ClassifierParams.anyString());
    Map<String, Param<?>> bySetting = new LinkedHashMap<>();
    for (Setting<?> s : TrainerConfig.ALL) {
      bySetting.put(s.name(), ClassifierParams.paramFor(uid, s));
    }
    settings = Collections.unmodifiableMap(bySetting);
  }

  /** Every param, column params first, then the training settings. */
  Param<?>[] all() {
    List<Param<?>> all = new ArrayList<>(List.of(featuresCol, labelCol, predictionCol, inputChannels, inputHeight,
        inputWidth, validationFraction, validationIndicatorCol, metricsPath));
    all.addAll(settings.values());
    return all.toArray(new Param<?>[0]);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  void setDefaults(Params owner) {
    owner.setDefault(featuresCol, "features");
    owner.setDefault(labelCol, "label");
    owner.setDefault(predictionCol, "prediction");
    owner.setDefault(inputChannels, 0);
    owner.setDefault(inputHeight, 0);
    owner.setDefault(inputWidth, 0);
    owner.setDefault(validationFraction, 0.0);
    owner.setDefault(validationIndicatorCol, "");
    owner.setDefault(metricsPath, "");
    for (Setting<?> s : TrainerConfig.ALL) {
      owner.setDefault((Param) settings.get(s.name()), s.defaultValue());
    }
    owner.setDefault((Param) settings.get(TrainerConfig.MODEL.name()), DEFAULT_MODEL);
    owner.setDefault((Param) settings.get(TrainerConfig.LOSS.name()), DEFAULT_LOSS);
  }

  /** The training configuration the params describe; combinations are checked by build(). */
  TrainerConfig toConfig(Params owner, Map<String, String> sparkConf) {
    return ClassifierParams.toConfig(owner, settings, sparkConf);
  }
}
