package io.dssync.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dssync.errors.ModelErrors;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the export helper ({@code python/dssync_export.py}) records in a TorchScript file's extra file
 * {@code dssync.json}: the input shape of one example and its type, the output width, whether the file
 * has its own loss, the names of the float buffers {@code dssync_buffers()} returns, and the PyTorch
 * version that wrote it; {@code json} is the file's text, which a trained copy of the model carries on.
 */
public record ScriptMetadata(int[] inputShape, boolean integerInput, int outputSize, boolean hasLoss,
    String[] buffers, String torchVersion, String json) implements Serializable {
  /** The extra file's name inside the archive ({@code <archive>/extra/dssync.json}). */
  public static final String EXTRA_FILE = "dssync.json";
  static final int FORMAT = 1;

  /** Floats per example the model reads. */
  public int inputSize() {
    int n = 1;
    for (int d : inputShape) {
      n *= d;
    }
    return n;
  }

  /** The metadata in TorchScript file {@code bytes}, or an error that says how to export the file. */
  public static ScriptMetadata read(String path, byte[] bytes) {
    String json;
    boolean archive = true;
    try {
      json = TorchScriptArchive.extra(bytes, EXTRA_FILE);
    } catch (java.util.zip.ZipException e) {
      json = null;
      archive = false;
    } catch (IOException e) {
      throw ModelErrors.scriptFile(path, "its bytes could not be read as an archive (" + e + ")",
          "Check the file, or export it again with python/dssync_export.py.");
    }
    if (!archive) {
      throw ModelErrors.scriptFile(path, "it is not a TorchScript file (not a zip archive of torch.jit.save)",
          "Export the model with python/dssync_export.py.");
    }
    if (json == null) {
      throw ModelErrors.scriptFile(path,
          "it has no " + EXTRA_FILE + ", so the replica cannot see its buffers (BatchNorm"
          + " statistics) nor check its shapes; a file from torch.jit.trace or a plain torch.jit.save has none",
          "Export the nn.Module with python/dssync_export.py, which scripts it and adds both.");
    }
    return parse(path, json);
  }

  static ScriptMetadata parse(String path, String json) {
    try {
      JsonNode root = new ObjectMapper().readTree(json);
      int format = root.path("format").asInt(-1);
      if (format != FORMAT) {
        throw ModelErrors.scriptFile(path,
            EXTRA_FILE + " has format " + format + ", this version reads format " + FORMAT,
            "Export the model again with this version's python/dssync_export.py.");
      }
      List<Integer> shape = new ArrayList<>();
      root.path("input_shape").forEach(n -> shape.add(n.asInt()));
      List<String> buffers = new ArrayList<>();
      root.path("buffers").forEach(n -> buffers.add(n.asText()));
      String dtype = root.path("input_dtype").asText("float32");
      int[] dims = shape.stream().mapToInt(Integer::intValue).toArray();
      if (dims.length == 0 || Arrays.stream(dims).anyMatch(d -> d < 1)) {
        throw ModelErrors.scriptFile(path, EXTRA_FILE + " has input_shape " + Arrays.toString(dims),
            "Export with --input-shape of one example, e.g. 1,28,28.");
      }
      return new ScriptMetadata(dims, dtype.startsWith("int"), root.path("output_size").asInt(-1),
          root.path("has_loss").asBoolean(false), buffers.toArray(String[]::new), root.path("torch_version").asText("?"),
          json);
    } catch (IOException e) {
      throw ModelErrors.scriptFile(path, EXTRA_FILE + " is not valid JSON (" + e.getMessage() + ")",
          "Export the model again with python/dssync_export.py.");
    }
  }
}
