package io.dssync.ml;

import io.dssync.train.Setting;
import io.dssync.train.SparkConfSettings;
import io.dssync.train.TrainerConfig;
import io.dssync.train.TrainerConfigBuilder;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;
import scala.Function1;

/**
 * The Spark ML params of {@link DsSyncClassifier} and {@link DsSyncClassificationModel} beyond the ones Spark's
 * ProbabilisticClassifier declares (featuresCol, labelCol, predictionCol, rawPredictionCol, probabilityCol,
 * thresholds), owned by one stage uid. Shape and validation params are declared here; every
 * {@link TrainerConfig} setting becomes a param of the same name, doc and default, validated by the setting's own check (so a
 * bad value fails with the same message as the CLI flag), and new settings appear automatically.
 * {@link RegressorParams} builds its params with the same helpers.
 */
final class ClassifierParams implements Serializable {
  final IntParam inputChannels;
  final IntParam inputHeight;
  final IntParam inputWidth;
  final IntParam numClasses;
  final IntParam vocabSize;
  final DoubleParam validationFraction;
  final Param<String> validationIndicatorCol;
  final Param<String> metricsPath;
  /** TrainerConfig setting name to its param, in TrainerConfig.ALL order. */
  final Map<String, Param<?>> settings;

  ClassifierParams(String uid) {
    inputChannels = shape(uid, "inputChannels", "model input channels C; 0 = derive (1)");
    inputHeight = shape(uid, "inputHeight",
        "model input height H; 0 = derive (sqrt of the feature size when it is a square, else the feature size)");
    inputWidth = shape(uid, "inputWidth", "model input width W; 0 = derive (like inputHeight, else 1)");
    numClasses = shape(uid, "numClasses",
        "number of classes; 0 = derive from the label column's metadata (StringIndexer) or its max + 1");
    vocabSize = shape(uid, "vocabSize",
        "models of token ids (bert-cls): number of distinct ids; 0 = derive (largest id + 1)."
            + " deepfm derives its id space from the categorical indices itself");
    validationFraction = new DoubleParam(uid, "validationFraction",
        "fraction of the input held out (seeded) to evaluate the consensus model between stages;"
            + " 0 = no validation metrics (unless validationIndicatorCol is set)",
        fraction());
    validationIndicatorCol = validationIndicatorCol(uid);
    metricsPath = new Param<>(uid, "metricsPath",
        "JSON-lines metrics file written during fit, on any Hadoop file system (empty: none)", anyString());
    Map<String, Param<?>> bySetting = new LinkedHashMap<>();
    for (Setting<?> s : TrainerConfig.ALL) {
      bySetting.put(s.name(), paramFor(uid, s));
    }
    settings = Collections.unmodifiableMap(bySetting);
  }

  /**
   * Every param of the owner: Spark's {@code declared} ones first, then these, then the training settings. While
   * Spark's constructor runs (before these exist) only Spark's params created so far.
   */
  static Param<?>[] all(ClassifierParams own, Param<?>... declared) {
    List<Param<?>> all = new ArrayList<>();
    for (Param<?> param : declared) {
      if (param != null) {
        all.add(param);
      }
    }
    if (own != null) {
      all.addAll(List.of(own.inputChannels, own.inputHeight, own.inputWidth, own.numClasses, own.vocabSize,
          own.validationFraction, own.validationIndicatorCol, own.metricsPath));
      all.addAll(own.settings.values());
    }
    return all.toArray(new Param<?>[0]);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  void setDefaults(Params owner) {
    owner.setDefault(inputChannels, 0);
    owner.setDefault(inputHeight, 0);
    owner.setDefault(inputWidth, 0);
    owner.setDefault(numClasses, 0);
    owner.setDefault(vocabSize, 0);
    owner.setDefault(validationFraction, 0.0);
    owner.setDefault(validationIndicatorCol, "");
    owner.setDefault(metricsPath, "");
    for (Setting<?> s : TrainerConfig.ALL) {
      owner.setDefault((Param) settings.get(s.name()), s.defaultValue());
    }
  }

  /** The training configuration the params describe; combinations are checked by build(). */
  TrainerConfig toConfig(Params owner, Map<String, String> sparkConf) {
    return toConfig(owner, settings, sparkConf);
  }

  /**
   * The configuration of {@code owner}'s setting params: a param set explicitly wins over Spark's
   * configuration ({@link SparkConfSettings}), which wins over the param's default.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static TrainerConfig toConfig(Params owner, Map<String, Param<?>> settings, Map<String, String> sparkConf) {
    Map<Setting<?>, Object> fromConf = SparkConfSettings.parse(sparkConf);
    TrainerConfigBuilder builder = TrainerConfig.builder();
    for (Setting<?> s : TrainerConfig.ALL) {
      Param<?> param = settings.get(s.name());
      boolean conf = !owner.isSet(param) && fromConf.containsKey(s);
      builder.set((Setting) s, conf ? fromConf.get(s) : owner.getOrDefault(param));
    }
    return builder.build();
  }

  /** The typed Spark param for one setting: validation is the setting's own check. */
  static Param<?> paramFor(String uid, Setting<?> s) {
    Object d = s.defaultValue();
    if (d instanceof Integer) {
      return new IntParam(uid, s.name(), s.doc(), checkedBy(s));
    } else if (d instanceof Long) {
      return new LongParam(uid, s.name(), s.doc(), checkedBy(s));
    } else if (d instanceof Double) {
      return new DoubleParam(uid, s.name(), s.doc(), checkedBy(s));
    } else if (d instanceof String) {
      return new Param<String>(uid, s.name(), s.doc(), checkedBy(s));
    }
    // A new setting type must be mapped here; fail loudly instead of silently dropping it.
    throw new IllegalStateException("Setting " + s.name() + " has type " + d.getClass().getName()
        + ", which ClassifierParams does not map to a Spark param yet.");
  }

  /** Throws the setting's DsSyncException (naming flag, value and rule) instead of returning false. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <T> Function1<T, Object> checkedBy(Setting<?> s) {
    Setting raw = s;
    return (Function1<T, Object> & Serializable) v -> {
      raw.checked(v);
      return Boolean.TRUE;
    };
  }

  /** The validation indicator column param both estimators declare (see {@link FitInput#checkValidation}). */
  static Param<String> validationIndicatorCol(String uid) {
    return new Param<>(uid, "validationIndicatorCol",
        "boolean column: rows where it is true validate the consensus model and are not trained on"
            + " (empty: none; null counts as false)", anyString());
  }

  static Function1<String, Object> nonEmpty() {
    return (Function1<String, Object> & Serializable) v -> v != null && !v.isEmpty();
  }

  static Function1<String, Object> anyString() {
    return (Function1<String, Object> & Serializable) v -> v != null;
  }

  static Function1<Object, Object> fraction() {
    return (Function1<Object, Object> & Serializable) v -> {
      double d = (Double) v;
      return d >= 0 && d < 1;
    };
  }

  static IntParam shape(String uid, String name, String doc) {
    return new IntParam(uid, name, doc, (Function1<Object, Object> & Serializable) v -> (Integer) v >= 0);
  }
}
