package io.dssync.replica;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import java.util.List;

/**
 * The network inside a replica, whatever its source: the arrays that make up its state (trainable
 * parameters, then the float buffers that are averaged too) and its forward pass in an explicit mode.
 * {@link BlockModel} serves the built-in families and users' factories, {@link ScriptModel} TorchScript files.
 */
interface ReplicaModel {
  /** Trainable parameters in a fixed order (the same in every replica). */
  List<NDArray> trainable();

  /** Float buffers averaged with the parameters (BatchNorm running statistics), in a fixed order. */
  List<NDArray> buffers();

  /** The names of {@link #trainable()} then {@link #buffers()}, in their order, as the model's engine calls them. */
  List<String> stateNames();

  /**
   * The state every replica starts from: seeded values for a model built here, or null to keep the
   * weights the model came with (a TorchScript file's).
   */
  float[] initialState(long seed, int size);

  /** The output for a batch {@code x} (batch, C, H, W) in training or inference mode. */
  NDArray forward(NDArray x, boolean training);

  /** The model's own mean loss of {@code output} against {@code labels} (batch, label width); only some have one. */
  NDArray ownLoss(NDArray output, NDArray labels);

  /** Writes the model with its current state as a TorchScript file (in eval mode); only a TorchScript model can. */
  void writeTorchScript(java.io.OutputStream out);

  /** Where the model's arrays live; closing it frees them. */
  NDManager manager();
}
