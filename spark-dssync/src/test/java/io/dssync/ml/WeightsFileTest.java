package io.dssync.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSpec;
import io.dssync.models.TorchScriptModel;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.NamedTensor;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.testing.BorrowedSession;
import io.dssync.testing.TorchScripts;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A saved model directory's {@code weights.safetensors}, read back by a parser written here from the layout's
 * description (not the writer's code): the header, contiguous offsets, real shapes whose sizes add up to the
 * state, and values equal to the state; and, for a TorchScript model, PyTorch itself loading the weights by
 * name into the original scripted module and answering as the trained {@code model.pt} does.
 */
class WeightsFileTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  static BorrowedSession session;

  @BeforeAll
  static void openSession() {
    session = BorrowedSession.open();
  }

  @AfterAll
  static void closeSession() {
    session.close();
  }

  /** One tensor as the file describes it. */
  record Entry(String name, long[] shape, long begin, long end) {}

  /** The file parsed: its entries in data order, its metadata, and the data as floats. */
  record Parsed(List<Entry> entries, Map<String, String> metadata, float[] data, long headerLength) {}

  static Parsed parse(Path file) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    long headerLength = ByteBuffer.wrap(bytes, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    JsonNode header = JSON.readTree(new String(bytes, 8, (int) headerLength, StandardCharsets.UTF_8));
    List<Entry> entries = new ArrayList<>();
    Map<String, String> metadata = Map.of();
    for (Iterator<Map.Entry<String, JsonNode>> it = header.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (field.getKey().equals("__metadata__")) {
        metadata = JSON.convertValue(field.getValue(), Map.class);
        continue;
      }
      JsonNode e = field.getValue();
      assertEquals("F32", e.get("dtype").asText(), field.getKey());
      long[] shape = new long[e.get("shape").size()];
      for (int i = 0; i < shape.length; i++) {
        shape[i] = e.get("shape").get(i).asLong();
      }
      entries.add(new Entry(field.getKey(), shape, e.get("data_offsets").get(0).asLong(),
          e.get("data_offsets").get(1).asLong()));
    }
    entries.sort(Comparator.comparingLong(Entry::begin));
    int dataStart = 8 + (int) headerLength;
    float[] data = new float[(bytes.length - dataStart) / 4];
    ByteBuffer.wrap(bytes, dataStart, bytes.length - dataStart).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer()
        .get(data);
    assertEquals(0, (bytes.length - dataStart) % 4, "whole floats after the header");
    return new Parsed(entries, metadata, data, headerLength);
  }

  /** Offsets start at 0, follow each other without gaps, end at the data's end; shapes say the same sizes. */
  static void assertCutsTheState(Parsed parsed, float[] state) {
    long at = 0;
    long floats = 0;
    for (Entry e : parsed.entries()) {
      assertEquals(at, e.begin(), e.name() + " starts where the previous tensor ends");
      long size = 1;
      for (long d : e.shape()) {
        size *= d;
      }
      assertEquals(size * 4, e.end() - e.begin(), e.name() + ": bytes of its shape");
      floats += size;
      at = e.end();
    }
    assertEquals(state.length, floats, "the shapes' sizes add up to the state");
    assertEquals((long) parsed.data().length * 4, at, "the last tensor ends at the file's end");
    assertArrayEquals(state, parsed.data(), "the tensors hold the state, in its order");
  }

  private static float[] trainedState(ModelSpec spec, int steps) {
    try (ModelReplica replica = Replicas.create(spec, OptimizerSpec.sgd(0.9, 0), 1)) {
      SplittableRandom random = new SplittableRandom(5);
      int batch = 4;
      float[] x = new float[batch * spec.featureSize()];
      float[] y = new float[batch];
      for (int s = 0; s < steps; s++) {
        for (int i = 0; i < x.length; i++) {
          x[i] = (float) random.nextGaussian();
        }
        for (int i = 0; i < batch; i++) {
          y[i] = random.nextInt(spec.numClasses());
        }
        replica.trainStep(x, y, batch, 0.05f);
      }
      float[] state = new float[replica.stateSize()];
      replica.readState(state);
      return state;
    }
  }

  private static List<NamedTensor> tensorsOf(ModelSpec spec) {
    try (ModelReplica replica = Replicas.create(spec, OptimizerSpec.sgd(0, 0), 1)) {
      return replica.stateTensors();
    }
  }

  private Path save(ModelSpec spec, float[] state, String name) throws Exception {
    Path out = dir.resolve(name);
    DsSyncClassificationModel.restore("uid-" + name, spec, state,
        new TrainingSummary(List.of(), "test", 0, 0, null, null), null)
        .write().session(session.spark()).save(out.toString());
    return out;
  }

  @Test
  void builtInModelsWeightsAreTheStateCutIntoDjlsNamedTensors() throws Exception {
    // mlp: parameters only; cnn: BatchNorm's running statistics follow as buffers.
    for (ModelSpec spec : List.of(new ModelSpec("mlp", 1, 3, 4, 5, 11L), new ModelSpec("cnn", 1, 8, 8, 3, 11L))) {
      float[] state = trainedState(spec, 2);
      Parsed parsed = parse(save(spec, state, spec.name()).resolve(ModelPersistence.WEIGHTS_FILE));
      assertEquals(0, parsed.headerLength() % 8, "the data starts 8-byte aligned");
      assertCutsTheState(parsed, state);
      List<NamedTensor> expected = tensorsOf(spec);
      System.out.println("[weights] " + spec.name() + ": " + expected);
      assertEquals(expected.size(), parsed.entries().size());
      for (int i = 0; i < expected.size(); i++) {
        assertEquals(expected.get(i).name(), parsed.entries().get(i).name());
        assertArrayEquals(expected.get(i).shape(), parsed.entries().get(i).shape(), expected.get(i).name());
      }
      assertTrue(parsed.entries().stream().anyMatch(e -> e.shape().length == 2), "a weight matrix keeps its 2-D shape");
      Map<String, String> meta = parsed.metadata();
      assertEquals("pt", meta.get("format"));
      assertEquals("builtin", meta.get("dssync.source"));
      assertEquals(spec.name(), meta.get("dssync.model"));
      assertEquals("djl", meta.get("dssync.names"));
      assertEquals("cross-entropy", meta.get("dssync.loss"));
      assertEquals(String.valueOf(ModelPersistence.FORMAT_VERSION), meta.get("dssync.model_format_version"));
      assertEquals(expected.stream().filter(NamedTensor::trainable).count(),
          Long.parseLong(meta.get("dssync.trainable_tensors")));
      assertEquals(spec.numClasses(), JSON.readTree(meta.get("dssync.spec")).get("numClasses").asInt());
    }
    assertTrue(tensorsOf(new ModelSpec("cnn", 1, 8, 8, 3, 11L)).stream().anyMatch(t -> !t.trainable()),
        "the cnn's BatchNorm statistics are buffers");
  }

  @Test
  void pytorchLoadsATorchScriptModelsWeightsByNameAndAnswersAsTheTrainedFile() throws Exception {
    TorchScripts.requireTorch();
    Path original = TorchScripts.export(dir.resolve("residual.pt"), "residual_cnn:ResidualCnn",
        "{\"classes\": 3, \"width\": 4, \"dropout\": 0.0}", "1,28,28", 3, null);
    TorchScriptModel source = TorchScriptModel.of(original.toString(), Files.readAllBytes(original));
    ModelSpec spec = new ModelSpec("residual.pt", 1, 28, 28, 3, 3, 0, 1, LossKind.CLASSIFICATION, source);
    // Training steps move the parameters and, in training mode, BatchNorm's running statistics.
    float[] state = trainedState(spec, 3);
    Path saved = save(spec, state, "residual");
    Parsed parsed = parse(saved.resolve(ModelPersistence.WEIGHTS_FILE));
    assertCutsTheState(parsed, state);
    assertEquals("pytorch", parsed.metadata().get("dssync.names"));
    assertTrue(parsed.entries().stream().anyMatch(e -> e.name().equals("net.fc.weight")),
        "PyTorch's names: " + parsed.entries());
    assertTrue(parsed.entries().stream().anyMatch(e -> e.name().equals("net.stem.1.running_var")),
        "the buffers by name: " + parsed.entries());

    Path check = Files.writeString(dir.resolve("check.py"), """
        import sys
        import torch
        sys.path.insert(0, sys.argv[1])
        from dssync_weights import read_weights
        weights, meta = read_weights(sys.argv[2] + "/weights.safetensors")
        module = torch.jit.load(sys.argv[3])
        trained = torch.jit.load(sys.argv[2] + "/model.pt")
        module.eval()
        trained.eval()
        x = torch.randn(5, 1, 28, 28, generator=torch.Generator().manual_seed(0))
        with torch.no_grad():
            before = module(x)
            missing, unexpected = module.load_state_dict(weights, strict=False)
            assert not unexpected, unexpected
            assert all(k.endswith("num_batches_tracked") for k in missing), missing
            after = module(x)
            expected = trained(x)
        assert not torch.allclose(before, expected, atol=1e-4), "training changed nothing"
        diff = (after - expected).abs().max().item()
        assert diff < 1e-5, diff
        print("same outputs, max difference", diff, "over", len(weights), "tensors from", meta["dssync.source"])
        """);
    TorchScripts.Result r = TorchScripts.run(List.of(TorchScripts.PYTHON, check.toString(),
        TorchScripts.repo().resolve("python").toString(), saved.toString(), original.toString()), 300, true);
    assertEquals(0, r.exit(), r.output());
    assertTrue(r.output().contains("same outputs"), r.output());
    assertNotEquals(0, parsed.entries().size());
  }
}
