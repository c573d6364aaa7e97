package io.dssync.models;

import io.dssync.errors.Errors;
import io.dssync.errors.ModelErrors;
import java.util.Arrays;

/**
 * A TorchScript file written by {@code python/dssync_export.py}: the path it came from (for messages), its
 * bytes (read once on the driver) and its {@link ScriptMetadata}. Replicas load it from the bytes and start
 * from the file's own weights, or, when {@code seeded}, from weights drawn from the training seed.
 */
public record TorchScriptModel(String path, ScriptBytes bytes, ScriptMetadata metadata, boolean seeded)
    implements ModelSource {
  /** The model in file {@code path} whose content is {@code content}, starting from the file's weights. */
  public static TorchScriptModel of(String path, byte[] content) {
    return new TorchScriptModel(path, ScriptBytes.of(content), ScriptMetadata.read(path, content), false);
  }

  /** The same file with its bytes behind {@code shipped} (a broadcast). */
  public TorchScriptModel shippedAs(ScriptBytes shipped) {
    return new TorchScriptModel(path, shipped, metadata, seeded);
  }

  /** The same file, its weights drawn from the training seed instead ({@code --model-init seeded}). */
  public TorchScriptModel seededWeights() {
    return new TorchScriptModel(path, bytes, metadata, true);
  }

  /**
   * A trained copy of this model: {@code written} is what libtorch wrote for it, to which the file's
   * {@code dssync.json} is added back, so that the copy trains again with {@code --model-file}.
   */
  public byte[] trainedFile(byte[] written) {
    try {
      return TorchScriptArchive.withExtra(written, ScriptMetadata.EXTRA_FILE, metadata.json());
    } catch (java.io.IOException e) {
      throw ModelErrors.scriptFile(path, "its trained copy could not be assembled (" + e + ")",
          "Check the space of the temporary folder (java.io.tmpdir).");
    }
  }

  @Override
  public String describe() {
    return "TorchScript file " + path;
  }

  @Override
  public LossKind defaultLoss() {
    return metadata.hasLoss() ? LossKind.CUSTOM : LossKind.CLASSIFICATION;
  }

  @Override
  public void check(ModelSpec spec) {
    Models.checkCommon(spec);
    if (metadata.inputSize() != spec.featureSize()) {
      throw ModelErrors.scriptFile(path, "it reads examples of shape " + Arrays.toString(metadata.inputShape()) + " ("
          + metadata.inputSize() + " values), but the data has " + spec.channels() + "x" + spec.height() + "x"
          + spec.width() + " (" + spec.featureSize() + " values)",
          "Export with --input-shape matching the features, or choose the features that match the model.");
    }
    if (spec.lossKind() == LossKind.CUSTOM && !metadata.hasLoss()) {
      throw Errors.invalidFlag("loss", "custom", "the file " + path + " has no dssync_loss method",
          "Export with --loss module:function, or choose a built-in loss (" + String.join(", ",
              LossKind.flagNames()) + ").");
    }
    int expected = spec.outputSize();
    if (expected > 0 && metadata.outputSize() != expected) {
      String task = spec.lossKind().classLabels() && spec.lossKind() != LossKind.BINARY
          ? spec.numClasses() + " classes" : "labels of width " + spec.labelWidth();
      throw ModelErrors.scriptFile(path, "it outputs " + metadata.outputSize() + " values per example, but the "
          + spec.lossKind().flagName() + " loss on " + task + " needs " + expected,
          "Export the model with an output of " + expected + " (--output-size " + expected + "), or choose the"
              + " loss and labels it was built for.");
    }
  }
}
