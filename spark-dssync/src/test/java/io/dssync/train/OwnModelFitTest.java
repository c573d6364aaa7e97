package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.DatasetSplits;
import io.dssync.data.LabeledArrays;
import io.dssync.data.frame.DataFrames;
import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.ml.DsSyncClassificationModel;
import io.dssync.testing.Dsdt;
import io.dssync.testing.TestData;
import io.dssync.testing.TestSpark;
import io.dssync.testing.TorchScripts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's TorchScript file trained by DS-Sync on executor JVMs (the shared local-cluster), saved as a model
 * directory whose model.pt PyTorch serves; and a user's loss that turns NaN partway through.
 */
class OwnModelFitTest {
  @TempDir
  static Path dir;
  private static SparkSession spark;
  private static DatasetSplits data;

  @BeforeAll
  static void start() {
    TorchScripts.requireTorch();
    spark = TestSpark.session();
    data = TestData.fashionMnist(2_048, 500);
  }

  private static TrainerConfigBuilder fourWorkers(Path file) {
    return TrainerConfig.builder()
        .set(TrainerConfig.SLOT_WAIT_MS, 2_000)
        .set(TrainerConfig.SYNC_TIMEOUT_MS, 30_000)
        .set(TrainerConfig.WORKERS, 4)
        .set(TrainerConfig.SCHEDULE, "random")
        .set(TrainerConfig.GROUP_SIZE, 2)
        .set(TrainerConfig.BATCH_SIZE, 32)
        .set(TrainerConfig.STEPS_PER_STAGE, 8)
        .set(TrainerConfig.MODEL_FILE, file.toString());
  }

  @Test
  void aFileTrainedOnExecutorsLeavesADirectoryWhoseModelFilePyTorchServesAlike() throws Exception {
    Path file = TorchScripts.export(dir.resolve("residual.pt"), "residual_cnn:ResidualCnn", "{}", "1,28,28", 10, null);
    TrainingResult result = new DsSyncTrainer(spark, fourWorkers(file).set(TrainerConfig.EPOCHS, 1).build())
        .fit(TrainingData.of(spark, data, 4));
    // Two stages of 8 steps: the file learns on the executors (its accuracy is the acceptance run's matter).
    List<io.dssync.metrics.StageMetrics> stages = result.history();
    assertTrue(stages.get(stages.size() - 1).trainLoss() < stages.get(0).trainLoss(), stages.toString());
    Path saved = dir.resolve("model");
    DsSyncClassificationModel.fromTraining(result).write().save(saved.toString());
    DsSyncClassificationModel loaded = DsSyncClassificationModel.load(saved.toString());
    LabeledArrays test = data.test();
    List<Row> rows = loaded.transform(DataFrames.toDataFrame(spark, test, 2)).select("prediction").collectAsList();
    Path predictions = dir.resolve("torch.dsdt");
    TorchScripts.example("predict.py", List.of("--model", saved.resolve("model.pt").toString(), "--features",
        Dsdt.write(dir.resolve("test.dsdt"), test).toString(), "--out", predictions.toString()), 300);
    float[] logits = Dsdt.read(predictions)[0];
    int same = 0;
    for (int i = 0; i < test.size(); i++) {
      int best = 0;
      for (int k = 1; k < 10; k++) {
        best = logits[i * 10 + k] > logits[i * 10 + best] ? k : best;
      }
      same += best == (int) rows.get(i).getDouble(0) ? 1 : 0;
    }
    assertEquals(test.size(), same, "rows whose class PyTorch predicts as the loaded Spark ML model does");
  }

  @Test
  void aLossThatTurnsNanFailsNamingItAndKeepsTheCheckpointsAlreadyWritten() throws Exception {
    Path file = TorchScripts.export(dir.resolve("nan-loss.pt"), "residual_cnn:ResidualCnn", "{}", "1,28,28", 10,
        "losses:sqrt_of_excess_cross_entropy");
    Path checkpoints = dir.resolve("checkpoints");
    TrainerConfig config = fourWorkers(file).set(TrainerConfig.EPOCHS, 4).set(TrainerConfig.STEPS_PER_STAGE, 4)
        .set(TrainerConfig.CHECKPOINT_DIR, checkpoints.toUri().toString())
        .set(TrainerConfig.MAX_STAGE_ATTEMPTS, 1).build();
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> new DsSyncTrainer(spark, config).fit(TrainingData.of(spark, data, 4)));
    assertEquals(ErrorKind.DIVERGED, e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains("the model file's own loss (dssync_loss) returned NaN"), e.getMessage());
    try (Stream<Path> saved = Files.list(checkpoints)) {
      assertTrue(saved.anyMatch(p -> p.getFileName().toString().startsWith("ckpt-")),
          "the stages before the NaN left no checkpoint");
    }
  }
}
