package io.dssync.replica;

import ai.djl.engine.EngineException;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Parameter;
import ai.djl.pytorch.engine.PtNDManager;
import ai.djl.pytorch.engine.PtSymbolBlock;
import ai.djl.pytorch.jni.IValue;
import ai.djl.pytorch.jni.IValueUtils;
import ai.djl.pytorch.jni.JniUtils;
import io.dssync.errors.ModelErrors;
import io.dssync.models.ScriptMetadata;
import io.dssync.models.TorchScriptModel;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A TorchScript module loaded from the file's bytes. Loaded from a stream, its parameters stay trainable
 * (a path-based load runs under InferenceMode and cannot be unfrozen). The loaded module starts in eval
 * mode whatever DJL's block believes, so every forward pass sets the mode itself. The buffers come from the
 * file's exported {@code dssync_buffers()} method, whose tensors are the module's own.
 */
final class ScriptModel implements ReplicaModel {
  static final String BUFFERS_METHOD = "dssync_buffers";
  static final String LOSS_METHOD = "dssync_loss";
  /** DJL calls another method of the module when one input array carries this name prefix. */
  private static final String METHOD_MARKER = "module_method:";

  private final PtNDManager manager;
  private final PtSymbolBlock module;
  private final ScriptMetadata metadata;
  private final boolean seeded;
  private final String path;
  private final List<NDArray> trainable = new ArrayList<>();
  private final List<NDArray> buffers;

  ScriptModel(TorchScriptModel source, NDManager manager) {
    this.manager = (PtNDManager) manager;
    this.metadata = source.metadata();
    this.seeded = source.seeded();
    this.path = source.path();
    try {
      this.module = JniUtils.loadModule(this.manager, new ByteArrayInputStream(source.bytes().get()), true, false);
    } catch (IOException | EngineException e) {
      throw ModelErrors.modelFileLoad(path, metadata.torchVersion(), TorchRuntime.libtorchVersion(), e);
    }
    List<String> methods = Arrays.asList(JniUtils.getMethodNames(module));
    if (!methods.contains(BUFFERS_METHOD)) {
      throw ModelErrors.scriptFile(path,
          "it has no " + BUFFERS_METHOD + "() method, so the replica cannot see its buffers"
          + " (BatchNorm statistics) to average them", "Export the nn.Module with python/dssync_export.py.");
    }
    if (metadata.hasLoss() && !methods.contains(LOSS_METHOD)) {
      throw ModelErrors.scriptFile(path, "its dssync.json promises a " + LOSS_METHOD + " method that it lacks",
          "Export the model again with python/dssync_export.py.");
    }
    for (Parameter p : module.getParameters().values()) {
      trainable.add(p.getArray());
    }
    try (IValue list = IValueUtils.runMethod(module, BUFFERS_METHOD)) {
      this.buffers = List.of(list.toTensorArray(this.manager));
    }
    if (buffers.size() != metadata.buffers().length) {
      throw ModelErrors.scriptFile(path, BUFFERS_METHOD + "() returns " + buffers.size() + " tensors but dssync.json"
          + " lists " + metadata.buffers().length + " buffers", "Export the model again with python/dssync_export.py.");
    }
    for (NDArray b : buffers) {
      if (b.getDataType() != DataType.FLOAT32) {
        throw ModelErrors.scriptFile(path, BUFFERS_METHOD + "() returns a " + b.getDataType() + " buffer; the state"
            + " averages float32 values only", "Export the model in float32 with python/dssync_export.py.");
      }
    }
  }

  @Override
  public List<NDArray> trainable() {
    return trainable;
  }

  @Override
  public List<NDArray> buffers() {
    return buffers;
  }

  /** PyTorch's names: {@code named_parameters()} of the file's module, then the buffers its dssync.json lists. */
  @Override
  public List<String> stateNames() {
    List<String> names = new ArrayList<>(module.getParameters().keys());
    names.addAll(Arrays.asList(metadata.buffers()));
    return names;
  }

  @Override
  public float[] initialState(long seed, int size) {
    if (!seeded) {
      return null;
    }
    List<NDArray> arrays = new ArrayList<>(trainable);
    arrays.addAll(buffers);
    return SeededInit.byName(stateNames(), arrays, seed, size);
  }

  @Override
  public NDArray forward(NDArray x, boolean training) {
    if (training) {
      JniUtils.enableTrainingMode(module);
    } else {
      JniUtils.enableInferenceMode(module);
    }
    long[] shape = new long[metadata.inputShape().length + 1];
    shape[0] = x.getShape().get(0);
    for (int i = 0; i < metadata.inputShape().length; i++) {
      shape[i + 1] = metadata.inputShape()[i];
    }
    NDArray input = x.reshape(new Shape(shape));
    if (metadata.integerInput()) {
      input = input.toType(DataType.INT64, false);
    }
    // Always the native call's training flavour: its inference flavour runs under InferenceMode, whose
    // tensors the TorchScript executor may not reuse once it has optimised the method for gradients
    // ("Inference tensors cannot be saved for backward" after a training step). The module's own mode
    // (set above) decides BatchNorm and dropout; the caller's grad mode decides what is recorded.
    NDList out = IValueUtils.forward(module, new NDList(input), true);
    if (out.size() != 1) {
      throw ModelErrors.scriptFile(path, "its forward returns " + out.size() + " tensors", "Return one tensor"
          + " (batch, outputs) from forward.");
    }
    return out.singletonOrThrow();
  }

  @Override
  public NDArray ownLoss(NDArray output, NDArray labels) {
    NDArray marker = output.getManager().zeros(new Shape(1));
    marker.setName(METHOD_MARKER + LOSS_METHOD);
    output.setName(null);
    labels.setName(null);
    NDList out = IValueUtils.forward(module, new NDList(output, labels, marker), true);
    return out.singletonOrThrow();
  }

  @Override
  public void writeTorchScript(java.io.OutputStream out) {
    // Saved in eval mode, as the export helper saves: torch.jit.load users serve it as it comes.
    JniUtils.enableInferenceMode(module);
    JniUtils.writeModule(module, out, false);
  }

  @Override
  public NDManager manager() {
    return manager;
  }
}
