package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.Initializer;
import ai.djl.util.Pair;
import io.dssync.errors.Errors;
import io.dssync.models.BlockSource;
import io.dssync.models.ModelSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A DJL block (a built-in family or a user's factory). Parameters that require gradients are trained; the
 * others (BatchNorm running mean and variance) are the buffers. Every parameter starts from the seed.
 */
final class BlockModel implements ReplicaModel {
  private final NDManager manager;
  private final Block block;
  private final ParameterStore store;
  private final List<Parameter> ordered = new ArrayList<>();
  private final List<NDArray> trainable = new ArrayList<>();
  private final List<NDArray> buffers = new ArrayList<>();
  private final List<String> names = new ArrayList<>();

  BlockModel(BlockSource source, ModelSpec spec, NDManager manager) {
    this.manager = manager;
    this.block = source.build(spec);
    // Zeros, not DJL's random initialisers: those draw from the torch global generator.
    block.setInitializer(Initializer.ZEROS, p -> true);
    block.initialize(manager, DataType.FLOAT32, new Shape(1, spec.channels(), spec.height(), spec.width()));
    // The list's keys are DJL's names, unique in the block: the child's name then the parameter's.
    for (Pair<String, Parameter> p : block.getParameters()) {
      if (p.getValue().requiresGradient()) {
        ordered.add(p.getValue());
        names.add(p.getKey());
        trainable.add(p.getValue().getArray());
      }
    }
    for (Pair<String, Parameter> p : block.getParameters()) {
      if (!p.getValue().requiresGradient()) {
        ordered.add(p.getValue());
        names.add(p.getKey());
        buffers.add(p.getValue().getArray());
      }
    }
    this.store = new ParameterStore(manager, false);
  }

  @Override
  public List<NDArray> trainable() {
    return trainable;
  }

  @Override
  public List<NDArray> buffers() {
    return buffers;
  }

  @Override
  public List<String> stateNames() {
    return names;
  }

  @Override
  public float[] initialState(long seed, int size) {
    return SeededInit.values(ordered, seed, size);
  }

  @Override
  public NDArray forward(NDArray x, boolean training) {
    return block.forward(store, new NDList(x), training).singletonOrThrow();
  }

  @Override
  public NDArray ownLoss(NDArray output, NDArray labels) {
    throw Errors.invalidFlag("loss", "custom", "only a TorchScript file can bring its own loss",
        "Choose a built-in loss for a built-in or factory model (--loss cross-entropy, mse, ...).");
  }

  @Override
  public void writeTorchScript(java.io.OutputStream out) {
    throw Errors.invalidSetting("TorchScript output", "a DJL block", "only a model trained from a TorchScript file"
        + " can be written as one", "Save the model directory (its weights file holds every parameter by name).");
  }

  @Override
  public NDManager manager() {
    return manager;
  }
}
