package io.dssync.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.format.ClickLogDataset;
import io.dssync.data.frame.DataFrames;
import io.dssync.data.fetch.DatasetCacheDir;
import io.dssync.data.DatasetSplits;
import io.dssync.data.FairAffairs;
import io.dssync.data.KjvDatasets;
import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.testing.TestSpark;
import io.dssync.train.TrainerConfig;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.evaluation.BinaryClassificationEvaluator;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.ml.feature.StringIndexer;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The estimator with the model families of id inputs, each in a Pipeline that is fitted on real
 * data, evaluated with Spark's own evaluators, saved, loaded and compared row by row (the dense
 * family is {@link DsSyncPipelineTest}): bert-cls on token ids (vocabSize derived), deepfm on
 * StringIndexer outputs of the Fair affairs survey's categorical columns (AUC from rawPrediction, its logit).
 * Also: a model saved in format version 1 still loads, and an unknown version fails by name.
 */
class ModelFamiliesPipelineTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = TestSpark.session();
  }

  @Test
  void bertClassifierPipelineLearnsBooksAndRoundTrips() throws Exception {
    DatasetSplits data = KjvDatasets.books(DatasetCacheDir.defaultDir(), 2_000, 32);
    Dataset<Row> train = DataFrames.toDataFrame(spark, data.train(), 4);
    Dataset<Row> test = DataFrames.toDataFrame(spark, data.test(), 2);
    DsSyncClassifier bert = new DsSyncClassifier().setModel("bert-cls-L1-H2-D32")
        .setWorkers(2).setSchedule("full").setEpochs(1).setBatchSize(32).setStepsPerStage(30)
        .setLearningRate(0.003).setSetting(TrainerConfig.OPTIMIZER, "adam")
        .setSetting(TrainerConfig.SLOT_WAIT_MS, 5_000);
    PipelineModel fitted = new Pipeline().setStages(new PipelineStage[] {bert}).fit(train);
    DsSyncClassificationModel model = (DsSyncClassificationModel) fitted.stages()[0];
    assertEquals(1, model.spec().height(), "token ids are one row: 1 x 1 x 32");
    assertEquals(32, model.spec().width());
    assertTrue(model.spec().vocabSize() > 1000 && model.spec().vocabSize() <= 2_000,
        "vocabSize derived as the largest id + 1: " + model.spec().vocabSize());

    double accuracy = new MulticlassClassificationEvaluator().setMetricName("accuracy")
        .evaluate(fitted.transform(test));
    System.err.printf("[bert-cls pipeline] test accuracy %.4f%n", accuracy);
    // Always answering the largest class (Psalms) scores 0.36 on these test verses.
    assertTrue(accuracy > 0.5, "test accuracy " + accuracy);
    assertSameAfterSaveAndLoad(fitted, test, "bert");
  }

  @Test
  void deepFmPipelineOnCategoricalColumnsGivesAucAndRoundTrips() throws Exception {
    ClickLogDataset affairs = FairAffairs.load();
    Dataset<Row> train = categorical(affairs, affairs.splits().train());
    Dataset<Row> test = categorical(affairs, affairs.splits().test());
    List<PipelineStage> stages = new ArrayList<>();
    String[] names = FairAffairs.FIELD_NAMES.toArray(new String[0]);
    String[] indexed = new String[names.length];
    for (int f = 0; f < indexed.length; f++) {
      indexed[f] = names[f] + "_index";
    }
    // One StringIndexer for all fields: the same labels and nominal metadata per column as one
    // indexer per field (Spark orders each column's labels alike either way), but one fit job and
    // one saved and loaded stage instead of one per field. "keep": a category first seen in the
    // test split gets an extra index, which the model maps to the field's unseen id.
    stages.add(new StringIndexer().setInputCols(names).setOutputCols(indexed).setHandleInvalid("keep"));
    stages.add(new VectorAssembler().setInputCols(indexed).setOutputCol("features"));
    stages.add(new DsSyncClassifier().setModel("deepfm").setWorkers(2).setSchedule("full").setEpochs(3)
        .setBatchSize(64).setStepsPerStage(40).setLearningRate(0.003)
        .setSetting(TrainerConfig.OPTIMIZER, "adam").setSetting(TrainerConfig.SLOT_WAIT_MS, 5_000));
    PipelineModel fitted = new Pipeline().setStages(stages.toArray(new PipelineStage[0])).fit(train);

    DsSyncClassificationModel model = (DsSyncClassificationModel) fitted.stages()[stages.size() - 1];
    assertEquals(2, model.numClasses());
    assertEquals(FairAffairs.FIELD_NAMES.size(), model.fieldCardinalities().length);
    Dataset<Row> scored = fitted.transform(test);
    double auc = new BinaryClassificationEvaluator().setMetricName("areaUnderROC").evaluate(scored);
    System.err.printf("[deepfm pipeline] test AUC %.4f%n", auc);
    // A constant score has AUC 0.5; one replica trained 200 steps reaches about 0.74.
    assertTrue(auc > 0.65, "test AUC " + auc);
    Row first = scored.select("rawPrediction", "probability").head();
    double[] raw = ((Vector) first.get(0)).toArray();
    double[] p = ((Vector) first.get(1)).toArray();
    assertEquals(0.0, raw[0], "a binary model's rawPrediction is (0, its logit)");
    assertEquals(Math.log(p[1] / p[0]), raw[1], 1e-6, "the probability is the softmax of rawPrediction");
    assertSameAfterSaveAndLoad(fitted, test, "deepfm");
  }

  @Test
  void modelFormatVersionOneLoadsAndAnUnknownVersionFailsByName() throws Exception {
    LabeledArrays tiny = tinyIds();
    Dataset<Row> frame = DataFrames.toDataFrame(spark, tiny, 2);
    DsSyncClassificationModel model = new DsSyncClassifier().setModel("mlp").setWorkers(2).setSchedule("full")
        .setEpochs(1).setBatchSize(8).setStepsPerStage(4).setSetting(TrainerConfig.SLOT_WAIT_MS, 5_000)
        .fit(frame);
    String path = freshPath("format");
    model.write().save(path);
    Path metadata = Path.of(path, "metadata", "part-00000");
    String current = Files.readString(metadata, StandardCharsets.UTF_8);
    assertTrue(current.contains("\"formatVersion\":" + ModelPersistence.FORMAT_VERSION), current);

    // Edited by hand: drop the local file system's checksum file, which would no longer match.
    Files.deleteIfExists(metadata.resolveSibling(".part-00000.crc"));
    // Version 1 had neither formatVersion nor fieldCardinalities, nor the stages' stageEndMs, nor the summary's
    // stop and model stage.
    assertTrue(current.contains("\"stageEndMs\":") && current.contains("\"stop\":null")
        && current.contains("\"modelStage\":null"), current);
    Files.writeString(metadata, current.replace("\"formatVersion\":" + ModelPersistence.FORMAT_VERSION + ",", "")
        .replaceAll(",\"fieldCardinalities\":null", "").replaceAll(",\"stageEndMs\":[^,}]*", "")
        .replace(",\"stop\":null", "").replace(",\"modelStage\":null", ""), StandardCharsets.UTF_8);
    DsSyncClassificationModel v1 = DsSyncClassificationModel.load(path);
    assertArrayEquals(model.state(), v1.state());
    assertNull(v1.fieldCardinalities());
    assertEquals(model.summary().history().size(), v1.summary().history().size());
    assertNull(v1.summary().stop());
    assertEquals(model.summary().finalAccuracy(), v1.summary().finalAccuracy());

    Files.writeString(metadata, current.replace("\"formatVersion\":" + ModelPersistence.FORMAT_VERSION,
        "\"formatVersion\":99"), StandardCharsets.UTF_8);
    DsSyncException e = assertThrows(DsSyncException.class, () -> DsSyncClassificationModel.load(path));
    assertTrue(e.getMessage().contains("format version 99") && e.getMessage().contains("versions 1 to 3"),
        e.getMessage());
  }

  @Test
  void maskedLmIsRefusedWithTheWayToPreTrain() {
    Dataset<Row> frame = DataFrames.toDataFrame(spark, tinyIds(), 2);
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> new DsSyncClassifier().setModel("bert-mlm").fit(frame));
    assertTrue(e.getMessage().contains("--preset bert-mlm"), e.getMessage());
  }

  /** 32 rows of 4 small ids, two classes: enough to fit and save a model quickly. */
  private static LabeledArrays tinyIds() {
    float[] f = new float[32 * 4];
    int[] l = new int[32];
    for (int i = 0; i < 32; i++) {
      l[i] = i % 2;
      for (int j = 0; j < 4; j++) {
        f[i * 4 + j] = (i + j) % 5;
      }
    }
    return new LabeledArrays(f, l, 4, 2);
  }

  /** The survey as a user has it: one string column per categorical field and a 0/1 label. */
  private static Dataset<Row> categorical(ClickLogDataset data, LabeledArrays split) {
    int fields = data.layout().fields();
    StructType schema = new StructType();
    for (String name : FairAffairs.FIELD_NAMES) {
      schema = schema.add(name, DataTypes.StringType, false);
    }
    schema = schema.add("label", DataTypes.DoubleType, false);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < split.size(); i++) {
      Object[] values = new Object[fields + 1];
      for (int f = 0; f < fields; f++) {
        int id = (int) split.features()[i * fields + f];
        values[f] = "v" + (id - data.layout().offset(f));
      }
      values[fields] = (double) split.labels()[i];
      rows.add(RowFactory.create(values));
    }
    // A local relation keeps its row order on every evaluation (repartition would not), so rows
    // can be compared one by one before and after save/load.
    return spark.createDataFrame(rows, schema);
  }

  private static void assertSameAfterSaveAndLoad(PipelineModel fitted, Dataset<Row> test, String name)
      throws java.io.IOException {
    String[] columns = {"prediction", "probability", "rawPrediction"};
    List<Row> before = fitted.transform(test).select("prediction", columns[1], columns[2]).collectAsList();
    String path = freshPath(name);
    fitted.write().save(path);
    List<Row> after = PipelineModel.load(path).transform(test).select("prediction", columns[1], columns[2])
        .collectAsList();
    assertEquals(before.size(), after.size());
    for (int i = 0; i < before.size(); i++) {
      assertEquals(before.get(i).getDouble(0), after.get(i).getDouble(0), "prediction of row " + i);
      for (int c = 1; c < 3; c++) {
        assertArrayEquals(((Vector) before.get(i).get(c)).toArray(), ((Vector) after.get(i).get(c)).toArray(),
            columns[c] + " of row " + i);
      }
    }
  }

  private static String freshPath(String name) {
    return new File(System.getProperty("dssync.buildDir"), "ml-test/" + name + "-" + UUID.randomUUID())
        .getAbsolutePath();
  }
}
