package io.dssync.train;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.Errors;
import io.dssync.models.ModelSpec;
import io.dssync.models.TorchScriptModel;
import io.dssync.replica.Evaluation;
import io.dssync.replica.ModelReplica;
import io.dssync.replica.OptimizerSpec;
import io.dssync.replica.Replicas;
import io.dssync.replica.NamedTensor;
import java.io.ByteArrayOutputStream;
import java.io.Serializable;
import java.util.List;

/** The consensus model: its spec and its flat state (parameters and BatchNorm statistics). */
public record TrainedModel(ModelSpec spec, float[] state) implements Serializable {

  /**
   * The trained model as a TorchScript file that {@code torch.jit.load} reads and {@code --model-file} trains
   * again (a model trained from a TorchScript file only).
   */
  public byte[] torchScript() {
    if (!(spec.modelSource() instanceof TorchScriptModel)) {
      throw Errors.invalidSetting("TorchScript output", spec.modelSource().describe(), "only a model trained from"
          + " a TorchScript file can be written as one", "Use the model directory's weights instead.");
    }
    return files().torchScript();
  }

  /**
   * What a saved model holds besides the flat state, from one short-lived replica on this JVM (the engine
   * knows the tensors' names and shapes only once it has built the model): the state's tensors, and the
   * trained TorchScript file of a model trained from one (null for others).
   */
  public Files files() {
    try (ModelReplica replica = Replicas.create(spec, OptimizerSpec.sgd(0, 0), 1)) {
      replica.writeState(state);
      byte[] script = null;
      if (spec.modelSource() instanceof TorchScriptModel file) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        replica.writeTorchScript(out);
        script = file.trainedFile(out.toByteArray());
      }
      return new Files(replica.stateTensors(), script);
    }
  }

  /** The state's tensors in its order, and the trained TorchScript file (null unless trained from one). */
  public record Files(List<NamedTensor> tensors, byte[] torchScript) {}

  /**
   * Evaluates on {@code data} with a short-lived replica on this JVM, with up to {@code threads}
   * intra-op threads on the calling thread, even where this JVM's replicas train with fewer (call it
   * while no fit trains here, or those replicas may share MKL's thread count for its duration).
   */
  public Evaluation evaluate(LabeledArrays data, int threads) {
    try (ModelReplica replica = Replicas.create(spec, OptimizerSpec.sgd(0, 0), threads)) {
      replica.writeState(state);
      return replica.evaluate(data.features(), data.labels(), data.size(), threads);
    }
  }
}
