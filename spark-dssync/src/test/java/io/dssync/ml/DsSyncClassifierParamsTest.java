package io.dssync.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;
import java.util.List;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Params of the estimator: one per training setting, the settings' own checks, schema checks. */
class DsSyncClassifierParamsTest {
  private static final StructType INPUT = new StructType()
      .add("features", SQLDataTypes.VectorType())
      .add("label", DataTypes.DoubleType)
      .add("name", DataTypes.StringType);

  @Test
  void everyTrainerSettingIsAParamWithItsDocAndDefault() {
    DsSyncClassifier c = new DsSyncClassifier();
    for (Setting<?> s : TrainerConfig.ALL) {
      Param<?> param = c.getParam(s.name());
      assertEquals(s.doc(), param.doc(), s.name());
      assertEquals(s.defaultValue(), c.getOrDefault(param), s.name());
    }
    assertEquals("features", c.getFeaturesCol());
    assertEquals("probability", c.getProbabilityCol());
    assertEquals(TrainerConfig.builder().build().describe(), c.trainerConfig().describe());
  }

  @Test
  void theEstimatorAndItsModelEachReadTheColumnsSetOnThem() {
    DsSyncClassifier c = new DsSyncClassifier().setFeaturesCol("pixels").setPredictionCol("guess")
        .setProbabilityCol("").setRawPredictionCol("scores");
    assertEquals(List.of("pixels", "guess", "", "scores"),
        List.of(c.getFeaturesCol(), c.getPredictionCol(), c.getProbabilityCol(), c.getRawPredictionCol()));
    DsSyncClassificationModel m = new DsSyncClassificationModel("m", null, new float[0], null, null);
    assertEquals(List.of("features", "prediction", "probability", "rawPrediction"),
        List.of(m.getFeaturesCol(), m.getPredictionCol(), m.getProbabilityCol(), m.getRawPredictionCol()));
    m.setFeaturesCol("pixels").setRawPredictionCol("");
    assertEquals("pixels", m.getFeaturesCol());
    assertEquals("", m.getRawPredictionCol());
  }

  @Test
  void outOfRangeSettingFailsWithTheSettingsOwnMessage() {
    DsSyncException e = assertThrows(DsSyncException.class, () -> new DsSyncClassifier().setGroupSize(0));
    assertEquals(ErrorKind.CONFIG, e.kind());
    assertTrue(e.getMessage().contains("--group-size = 0") && e.getMessage().contains(">= 1"), e.getMessage());
    DsSyncException s = assertThrows(DsSyncException.class, () -> new DsSyncClassifier().setSchedule("ring"));
    assertTrue(s.getMessage().contains("ring") && s.getMessage().contains("butterfly"), s.getMessage());
  }

  @Test
  void paramMapWithABadValueIsRejectedBySparksOwnValidation() {
    DsSyncClassifier c = new DsSyncClassifier();
    @SuppressWarnings("unchecked")
    Param<Object> lr = (Param<Object>) c.getParam("learningRate");
    DsSyncException e = assertThrows(DsSyncException.class, () -> c.copy(new ParamMap().put(lr, -1.0)));
    assertTrue(e.getMessage().contains("--learning-rate = -1.0"), e.getMessage());
  }

  @Test
  void inconsistentSettingsFailWhenTheConfigIsBuilt() {
    DsSyncClassifier c = new DsSyncClassifier().setWorkers(3).setSchedule("butterfly").setGroupSize(2);
    DsSyncException e = assertThrows(DsSyncException.class, c::trainerConfig);
    assertEquals(ErrorKind.CONFIG, e.kind());
  }

  @Test
  void settingsCanBeSetByFlagText() {
    DsSyncClassifier c = new DsSyncClassifier().setSetting("--shuffle-period", "5");
    assertEquals(5, c.getSetting(TrainerConfig.SHUFFLE_PERIOD));
  }

  @Test
  void copyKeepsUidAndParamsAndAppliesExtras() {
    DsSyncClassifier c = new DsSyncClassifier().setEpochs(7);
    @SuppressWarnings("unchecked")
    Param<Object> batch = (Param<Object>) c.getParam("batchSize");
    DsSyncClassifier copy = c.copy(new ParamMap().put(batch, 16));
    assertNotSame(c, copy);
    assertEquals(c.uid(), copy.uid());
    assertEquals(7, copy.getSetting(TrainerConfig.EPOCHS));
    assertEquals(16, copy.getSetting(TrainerConfig.BATCH_SIZE));
    assertEquals(64, c.getSetting(TrainerConfig.BATCH_SIZE));
  }

  @Test
  void transformSchemaAppendsPredictionProbabilityAndRawPrediction() {
    StructType out = new DsSyncClassifier().transformSchema(INPUT);
    assertEquals(DataTypes.DoubleType, out.apply("prediction").dataType());
    assertEquals(SQLDataTypes.VectorType(), out.apply("probability").dataType());
    assertEquals(SQLDataTypes.VectorType(), out.apply("rawPrediction").dataType());
    StructType noProbability = new DsSyncClassifier().setProbabilityCol("").transformSchema(INPUT);
    assertEquals(INPUT.fields().length + 2, noProbability.fields().length);
    StructType onlyPrediction = new DsSyncClassifier().setProbabilityCol("").setRawPredictionCol("")
        .transformSchema(INPUT);
    assertEquals(INPUT.fields().length + 1, onlyPrediction.fields().length);
  }

  @Test
  void schemaErrorsNameTheColumnAndTheFix() {
    DsSyncException missing = assertThrows(DsSyncException.class,
        () -> new DsSyncClassifier().setLabelCol("target").transformSchema(INPUT));
    assertTrue(missing.getMessage().contains("'target'") && missing.getMessage().contains("[features, label, name]"),
        missing.getMessage());
    DsSyncException wrongType = assertThrows(DsSyncException.class,
        () -> new DsSyncClassifier().setFeaturesCol("name").transformSchema(INPUT));
    assertTrue(wrongType.getMessage().contains("VectorAssembler"), wrongType.getMessage());
    DsSyncException clash = assertThrows(DsSyncException.class,
        () -> new DsSyncClassifier().setPredictionCol("name").transformSchema(INPUT));
    assertTrue(clash.getMessage().contains("already has a column 'name'"), clash.getMessage());
  }

  @Test
  void inputShapeIsDerivedOrChecked() {
    assertEquals(new InputShape(1, 28, 28), InputShape.derive(784, 0, 0, 0));
    assertEquals(new InputShape(1, 13, 1), InputShape.derive(13, 0, 0, 0));
    assertEquals(new InputShape(3, 4, 4), InputShape.derive(48, 3, 4, 4));
    DsSyncException e = assertThrows(DsSyncException.class, () -> InputShape.derive(784, 1, 28, 27));
    assertTrue(e.getMessage().contains("784"), e.getMessage());
  }
}
