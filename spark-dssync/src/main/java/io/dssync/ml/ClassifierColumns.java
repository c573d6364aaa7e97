package io.dssync.ml;

import org.apache.spark.ml.param.Params;

/**
 * The getters of the columns that {@link DsSyncClassifier} and its {@link DsSyncClassificationModel}
 * both read, written once (Spark ML's HasFeaturesCol, HasPredictionCol and the like, as one Java
 * interface). The params are looked up by name, so both classes keep their own {@link ClassifierParams}.
 */
public interface ClassifierColumns extends Params {
  default String getFeaturesCol() {
    return column("featuresCol");
  }

  default String getPredictionCol() {
    return column("predictionCol");
  }

  default String getProbabilityCol() {
    return column("probabilityCol");
  }

  default String getRawPredictionCol() {
    return column("rawPredictionCol");
  }

  private String column(String name) {
    return (String) getOrDefault(getParam(name));
  }
}
