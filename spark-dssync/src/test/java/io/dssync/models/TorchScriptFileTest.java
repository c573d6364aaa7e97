package io.dssync.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.testing.TorchScripts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the engine refuses in a TorchScript file, and how it says so. */
class TorchScriptFileTest {
  @TempDir
  static Path dir;
  private static byte[] mlp;

  @BeforeAll
  static void export() throws Exception {
    TorchScripts.requireTorch();
    mlp = Files.readAllBytes(TorchScripts.export(dir.resolve("mlp.pt"), "regression_mlp:RegressionMlp", "{}", "10",
        1, null));
  }

  private static ModelSpec regression(TorchScriptModel file) {
    return new ModelSpec("mlp.pt", 1, 1, 10, 0, 1, 0, 1, LossKind.MSE, file);
  }

  @Test
  void aFileFromANewerPyTorchIsRefusedNamingBothVersions() throws Exception {
    // As a PyTorch newer than the engine's writes it: a file format libtorch 2.7.1 does not read.
    byte[] newer = TorchScriptArchive.withEntry(mlp, "version", "99\n".getBytes(StandardCharsets.UTF_8));
    String json = TorchScriptModel.of("mlp.pt", mlp).metadata().json()
        .replaceAll("\"torch_version\": *\"[^\"]*\"", "\"torch_version\": \"9.1.0\"");
    newer = TorchScriptArchive.withExtra(newer, ScriptMetadata.EXTRA_FILE, json);
    TorchScriptModel file = TorchScriptModel.of("newer.pt", newer);
    assertEquals("9.1.0", file.metadata().torchVersion());
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Replicas.create(regression(file), OptimizerSpec.sgd(0, 0), 1).close());
    assertTrue(e.getMessage().contains("Cannot load model file newer.pt: it was written by PyTorch 9.1.0 and the"
        + " engine runs libtorch 2.7.1") && e.getMessage().contains("Export the model with a PyTorch no newer than"
        + " 2.7.1"), e.getMessage());
    // The unchanged file loads: the refusal is about the version.
    try (ModelReplica r = Replicas.create(regression(TorchScriptModel.of("mlp.pt", mlp)), OptimizerSpec.sgd(0, 0),
        1)) {
      assertTrue(r.stateSize() > 0);
    }
  }

  @Test
  void aReplicaWhoseFirstPassTrainedEvaluatesAfterItsStateIsWritten() {
    // The driver's replica of a fit: a training-mode pass (the memory check), the consensus written, then an
    // evaluation. The TorchScript executor, having optimised the MLP for gradients, refused tensors made
    // under InferenceMode in that evaluation.
    float[] features = new float[40];
    float[] labels = new float[4];
    for (int i = 0; i < features.length; i++) {
      features[i] = (i % 7) / 7f - 0.4f;
    }
    for (int i = 0; i < labels.length; i++) {
      labels[i] = i / 4f;
    }
    ModelSpec spec = regression(TorchScriptModel.of("mlp.pt", mlp));
    try (ModelReplica r = Replicas.create(spec, OptimizerSpec.sgd(0.9, 0), 1)) {
      r.stepFootprint(java.util.Arrays.copyOf(features, 20), java.util.Arrays.copyOf(labels, 2), 2);
      float[] state = new float[r.stateSize()];
      r.readState(state);
      r.writeState(state);
      assertEquals("r2", r.evaluate(features, labels, 4, 2).metricName());
      assertEquals(4, r.predictProbabilities(features, 4).length);
    }
  }

  @Test
  void aFileWithoutTheBuffersMethodIsRefusedWithHowToExportIt() throws Exception {
    Path plain = dir.resolve("plain.pt");
    TorchScripts.Result r = TorchScripts.run(java.util.List.of(TorchScripts.PYTHON, "-c",
        "import torch; m = torch.jit.script(torch.nn.Sequential(torch.nn.Linear(10, 4), torch.nn.BatchNorm1d(4),"
            + " torch.nn.Linear(4, 1))); torch.jit.save(m, '" + plain + "', _extra_files={'dssync.json': '"
            + "{\"format\": 1, \"input_shape\": [10], \"output_size\": 1, \"buffers\": []}'})"), 120, true);
    assertEquals(0, r.exit(), r.output());
    TorchScriptModel file = TorchScriptModel.of(plain.toString(), Files.readAllBytes(plain));
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Replicas.create(regression(file), OptimizerSpec.sgd(0, 0), 1).close());
    assertTrue(e.getMessage().contains("it has no dssync_buffers() method, so the replica cannot see its buffers")
        && e.getMessage().contains("python/dssync_export.py"), e.getMessage());
  }

  @Test
  void aFileReadingAnotherShapeThanTheDataIsRefusedNamingBoth() {
    ModelSpec wrongShape = new ModelSpec("mlp.pt", 1, 1, 12, 0, 1, 0, 1, LossKind.MSE,
        TorchScriptModel.of("mlp.pt", mlp));
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Replicas.create(wrongShape, OptimizerSpec.sgd(0, 0), 1).close());
    assertTrue(e.getMessage().contains("it reads examples of shape [10] (10 values), but the data has 1x1x12 (12"
        + " values)"), e.getMessage());
  }

  @Test
  void theCustomLossNeedsAFileThatHasOne() {
    ModelSpec custom = new ModelSpec("mlp.pt", 1, 1, 10, 0, 1, 0, 1, LossKind.CUSTOM,
        TorchScriptModel.of("mlp.pt", mlp));
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> Replicas.create(custom, OptimizerSpec.sgd(0, 0), 1).close());
    assertTrue(e.getMessage().contains("Invalid --loss = custom: the file mlp.pt has no dssync_loss method"),
        e.getMessage());
  }
}
