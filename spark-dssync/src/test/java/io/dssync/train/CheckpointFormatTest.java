package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.models.FactoryModel;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint format 2 carries the model (spec and source) through encode and decode; a checkpoint without
 * one reads back without one; a TorchScript file recorded by path is found again only if it is the same file.
 */
class CheckpointFormatTest {
  @TempDir
  Path dir;

  private static Checkpoint with(CheckpointedModel model) {
    return new Checkpoint(20, 2, 40, "run", 7, Map.of("seed", "7"), new float[] {1, 2, 3}, new float[] {4},
        5, model, FitProgress.NONE);
  }

  @Test
  void theModelRecordSurvivesEncodeAndDecode() throws Exception {
    ModelSpec spec = new ModelSpec("deepfm", 1, 1, 39, 0, 7, 1000, 1, LossKind.BINARY, null);
    Checkpoint back = Checkpoint.decode(with(CheckpointedModel.of(spec)).encode());
    assertEquals(spec, back.model().spec());
    assertEquals(CheckpointedModel.BUILT_IN, back.model().sourceKind());
    assertArrayEquals(new float[] {1, 2, 3}, back.state());
    assertArrayEquals(new float[] {4}, back.optimizerState());

    ModelSpec factory = spec.withSource(new FactoryModel("com.example.Net"), LossKind.MSE);
    CheckpointedModel recorded = Checkpoint.decode(with(CheckpointedModel.of(factory)).encode()).model();
    assertEquals(CheckpointedModel.FACTORY, recorded.sourceKind());
    assertEquals("com.example.Net", recorded.reference());
    assertEquals(LossKind.MSE, recorded.spec().loss());

    assertNull(Checkpoint.decode(with(null).encode()).model(), "no model recorded, none read");
  }

  @Test
  void aTorchScriptFileIsFoundAgainOnlyWhereItIsAndOnlyIfUnchanged() throws Exception {
    ModelSpec spec = new ModelSpec("TorchScript file net.pt", 1, 28, 28, 10, 3, 0, 1, LossKind.CLASSIFICATION,
        null);
    Path moved = dir.resolve("net.pt");
    CheckpointedModel recorded = new CheckpointedModel(spec, CheckpointedModel.TORCHSCRIPT, moved.toString(),
        CheckpointedModel.sha256(new byte[] {1, 2, 3}));
    DsSyncException gone = assertThrows(DsSyncException.class,
        () -> recorded.restore("", "ckpt-20", new Configuration()));
    assertTrue(gone.getMessage().contains("the run trained the TorchScript file " + moved + ", which no longer"
        + " exists there") && gone.getMessage().contains("--model-file"), gone.getMessage());

    Path other = Files.write(dir.resolve("other.pt"), new byte[] {9, 9});
    DsSyncException changed = assertThrows(DsSyncException.class,
        () -> recorded.restore(other.toString(), "ckpt-20", new Configuration()));
    assertTrue(changed.getMessage().contains("the TorchScript file " + other + " is not the one the run trained"),
        changed.getMessage());
  }

  @Test
  void aFormatOneSpecIsRebuiltFromTheSettingsAndTheShapeGiven() {
    Map<String, String> settings = Map.of(TrainerConfig.MODEL.name(), "mlp", TrainerConfig.LOSS.name(), "mse",
        TrainerConfig.SEED.name(), "11", TrainerConfig.MODEL_FILE.name(), "", TrainerConfig.MODEL_FACTORY.name(), "");
    ModelSpec spec = CheckpointedModel.fromSettings(settings, 1, 1, 3, 4, 0, 2)
        .restore("", "ckpt-20", new Configuration());
    assertEquals(new ModelSpec("mlp", 1, 1, 3, 0, 11, 0, 2, LossKind.MSE, null), spec,
        "a loss of real values has no classes, whatever was given");
  }
}
