package io.dssync.replica;

/**
 * One worker's copy of the model and its optimizer, seen as flat float vectors so that the
 * collective layer can average them without knowing the engine.
 *
 * <p>The <em>state</em> vector is the trainable parameters in a fixed order followed by
 * non-trainable statistics that must be averaged too (BatchNorm running mean and variance). The
 * <em>optimizer state</em> vector holds momentum / Adam moments in the same parameter order.
 *
 * <p>Implementations are not thread-safe, but several replicas may train concurrently on
 * different threads of one JVM (Spark local mode runs N tasks in one executor).
 */
public interface ModelReplica extends AutoCloseable {
  /** Length of the state vector (trainable parameters + averaged statistics). */
  int stateSize();

  /** Number of trainable parameters (the prefix of the state vector). */
  int trainableSize();

  /**
   * The tensors the state vector is made of, in its order (trainable parameters, then buffers): their
   * names and shapes, so that the flat state can be cut back into named tensors.
   */
  java.util.List<NamedTensor> stateTensors();

  /** Copies the state into {@code dst} (length {@link #stateSize()}). */
  void readState(float[] dst);

  /** Replaces the state with {@code src} (length {@link #stateSize()}). */
  void writeState(float[] src);

  int optimizerStateSize();

  void readOptimizerState(float[] dst);

  void writeOptimizerState(float[] src);

  /** Number of optimizer updates taken so far (Adam's bias correction needs it). */
  long optimizerSteps();

  void setOptimizerSteps(long steps);

  /**
   * One training step on {@code batchSize} examples: forward, loss, backward, zero-then-accumulate
   * gradients, optimizer update with learning rate {@code learningRate}. The loss is the spec's
   * {@code LossKind}: softmax cross-entropy, masked-LM cross-entropy over the masked positions, binary or
   * multi-label log-loss, MSE / L1 / Huber, or a TorchScript file's own.
   *
   * @param features row-major, {@code batchSize * featureSize} floats
   * @param labels row-major, {@code batchSize * labelWidth} floats: class indices in 0..numClasses-1
   *     (exact integers) for class tasks, real values otherwise
   * @return the mean loss of the batch before the update
   */
  float trainStep(float[] features, float[] labels, int batchSize, float learningRate);

  /**
   * The native memory a training step needs for any batch, measured by forward passes over batches of
   * two and four made of the first (up to two) of {@code count} (at least one) sample examples.
   * Leaves the replica's state as it was.
   */
  StepFootprint stepFootprint(float[] features, float[] labels, int count);

  /**
   * Evaluates on {@code count} examples in inference mode (BatchNorm uses running statistics).
   * Nothing is updated. The evaluation carries the task's metric (accuracy, masked-token accuracy,
   * or the AUC over all {@code count} examples).
   */
  Evaluation evaluate(float[] features, float[] labels, int count);

  /**
   * As {@link #evaluate(float[], float[], int)}, with up to {@code threads} intra-op threads on the
   * calling thread instead of the replica's: for the driver between stages, when no replica of this
   * JVM trains and that many cores are idle. Same result up to the order of float sums.
   */
  Evaluation evaluate(float[] features, float[] labels, int count, int threads);

  /**
   * Class probabilities (softmax of the logits) for {@code count} examples in inference mode,
   * row-major: {@code count * numClasses} floats (binary models: P(0), P(1); multi-label: one sigmoid per
   * label; regression and a file's own loss: the model's outputs). Nothing is updated.
   * Masked-LM models score positions, not examples, and refuse.
   */
  float[] predictProbabilities(float[] features, int count);

  /**
   * The network's raw outputs (before softmax or sigmoid) for {@code count} examples in inference mode, row-major:
   * {@code count * spec.outputSize()} floats (classification: one logit per class; binary: one logit). Nothing is
   * updated. Masked-LM models and files with their own loss have no fixed output width per example, and refuse.
   */
  float[] predictOutputs(float[] features, int count);

  /**
   * Writes the model in its current state as a plain TorchScript file, which {@code torch.jit.load} reads (a
   * replica of a TorchScript file only; others refuse).
   */
  void writeTorchScript(java.io.OutputStream out);

  @Override
  void close();
}
