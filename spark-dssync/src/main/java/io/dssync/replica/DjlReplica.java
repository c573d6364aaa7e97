package io.dssync.replica;

import ai.djl.engine.EngineException;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import io.dssync.errors.Errors;
import io.dssync.errors.ModelErrors;
import io.dssync.models.BlockSource;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSource;
import io.dssync.models.ModelSpec;
import io.dssync.models.TorchScriptModel;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ModelReplica} on DJL/PyTorch over a {@link ReplicaModel} of any source. State = trainable
 * parameters in the model's order, then its averaged buffers (BatchNorm running mean and variance).
 *
 * <p>Backward runs through libtorch directly with thread-local grad mode instead of DJL's
 * {@code PtGradientCollector}, which is a JVM-wide singleton and would fail when Spark runs
 * several tasks in one executor. Each step's temporaries are freed when the step ends. Loss,
 * metric and task-specific input rules come from the model's {@link Objective}.
 */
final class DjlReplica implements ModelReplica {
  /** Examples per forward pass in {@link #evaluate}, to bound memory. */
  static final int EVAL_BATCH = 512;

  private final ModelSpec spec;
  private final NDManager manager;
  private final ReplicaModel model;
  private final List<NDArray> trainable;
  private final FlatTensors state;
  private final int trainableSize;
  private final LocalOptimizer optimizer;
  private final Objective objective;
  private long optimizerSteps;
  private boolean closed;

  DjlReplica(ModelSpec spec, OptimizerSpec optimizerSpec, int threads) {
    this.spec = spec;
    ModelSource source = spec.modelSource();
    source.check(spec);
    this.manager = TorchRuntime.newManager(threads);
    try {
      TorchRuntime.prepareThread();
      this.model = source instanceof BlockSource blocks ? new BlockModel(blocks, spec, manager)
          : new ScriptModel((TorchScriptModel) source, manager);
      this.objective = Objective.of(spec.lossKind(), model);
      this.trainable = model.trainable();
      List<NDArray> all = new ArrayList<>(trainable);
      all.addAll(model.buffers());
      this.state = new FlatTensors(all);
      this.trainableSize = new FlatTensors(trainable).size();
      this.optimizer = LocalOptimizer.create(optimizerSpec, trainable, manager);
      float[] initial = model.initialState(spec.seed(), state.size());
      if (initial != null) {
        writeState(initial);
      }
    } catch (RuntimeException e) {
      manager.close();
      throw e instanceof EngineException ? ModelErrors.engineFailure("build model " + source.describe(), e) : e;
    }
  }

  @Override
  public int stateSize() {
    return state.size();
  }

  @Override
  public int trainableSize() {
    return trainableSize;
  }

  @Override
  public List<NamedTensor> stateTensors() {
    List<String> names = model.stateNames();
    List<NDArray> arrays = state.arrays();
    List<NamedTensor> tensors = new ArrayList<>(arrays.size());
    for (int i = 0; i < arrays.size(); i++) {
      tensors.add(new NamedTensor(names.get(i), arrays.get(i).getShape().getShape(), i < trainable.size()));
    }
    return tensors;
  }

  @Override
  public void readState(float[] dst) {
    InputChecks.stateLength("state", state.size(), dst);
    state.read(dst, 0);
  }

  @Override
  public void writeState(float[] src) {
    InputChecks.stateLength("state", state.size(), src);
    state.write(src, 0, manager);
  }

  @Override
  public int optimizerStateSize() {
    return optimizer.state().size();
  }

  @Override
  public void readOptimizerState(float[] dst) {
    InputChecks.stateLength("optimizer state", optimizerStateSize(), dst);
    optimizer.state().read(dst, 0);
  }

  @Override
  public void writeOptimizerState(float[] src) {
    InputChecks.stateLength("optimizer state", optimizerStateSize(), src);
    optimizer.state().write(src, 0, manager);
  }

  @Override
  public long optimizerSteps() {
    return optimizerSteps;
  }

  @Override
  public void setOptimizerSteps(long steps) {
    if (steps < 0) {
      throw Errors.invalidSetting("optimizer steps", steps, "must be >= 0",
          "Restore the count saved with the optimizer state.");
    }
    optimizerSteps = steps;
  }

  @Override
  public float trainStep(float[] features, float[] labels, int batchSize, float learningRate) {
    checkInputs(features, labels, batchSize);
    if (batchSize == 0) {
      throw Errors.invalidSetting("batch size", 0, "must be at least 1 for a training step",
          "Skip the step or give the partition more examples.");
    }
    InputChecks.learningRate(learningRate);
    TorchRuntime.prepareThread();
    try (NDScope scope = new NDScope(); NDManager step = manager.newSubManager()) {
      float loss = TorchRuntime.withGradMode(true, () -> forwardBackward(step, features, labels, batchSize));
      TorchRuntime.withGradMode(false, () -> {
        List<NDArray> grads = new ArrayList<>(trainable.size());
        for (NDArray p : trainable) {
          grads.add(p.getGradient());
        }
        optimizer.step(trainable, grads, learningRate, optimizerSteps + 1);
        return null;
      });
      optimizerSteps++;
      return loss;
    } catch (EngineException e) {
      throw ModelErrors.engineFailure("run a training step of model " + spec.modelSource().describe(), e);
    }
  }

  private float forwardBackward(NDManager step, float[] features, float[] labels, int batchSize) {
    for (NDArray p : trainable) {
      // Gradients accumulate in libtorch; start every step from zero.
      JniUtils.zeroGrad((PtNDArray) p);
    }
    NDArray loss = trainingLoss(step, features, labels, batchSize);
    JniUtils.backward((PtNDArray) loss, (PtNDArray) step.ones(loss.getShape()), false, false);
    return loss.getFloat();
  }

  /** A training-mode forward pass and the loss of a batch, their tensors in {@code step}. */
  NDArray trainingLoss(NDManager step, float[] features, float[] labels, int batchSize) {
    NDArray x = step.create(FloatBuffer.wrap(features), inputShape(batchSize));
    NDArray output = model.forward(x, true);
    return objective.loss(new ModelOutput(output, features, labels, 0, batchSize, spec));
  }

  @Override
  public Evaluation evaluate(float[] features, float[] labels, int count) {
    checkInputs(features, labels, count);
    TorchRuntime.prepareThread();
    return score(features, labels, count);
  }

  @Override
  public Evaluation evaluate(float[] features, float[] labels, int count, int threads) {
    checkInputs(features, labels, count);
    return TorchRuntime.withThreads(threads, () -> score(features, labels, count));
  }

  private Evaluation score(float[] features, float[] labels, int count) {
    Objective.Scorer scorer = objective.scorer();
    try {
      for (int start = 0; start < count; start += EVAL_BATCH) {
        int n = Math.min(EVAL_BATCH, count - start);
        int from = start;
        TorchRuntime.withGradMode(false, () -> {
          try (NDScope scope = new NDScope(); NDManager step = manager.newSubManager()) {
            scorer.add(new ModelOutput(infer(step, features, from, n), features, labels, from, n, spec));
            return null;
          }
        });
      }
    } catch (EngineException e) {
      throw ModelErrors.engineFailure("evaluate model " + spec.modelSource().describe(), e);
    }
    return scorer.result();
  }

  @Override
  public float[] predictProbabilities(float[] features, int count) {
    return predict(features, count, objective.predictionWidth(spec), objective::probabilities);
  }

  @Override
  public float[] predictOutputs(float[] features, int count) {
    LossKind kind = spec.lossKind();
    if (kind == LossKind.MASKED_LM || kind == LossKind.CUSTOM) {
      throw Errors.invalidSetting("predict raw outputs", kind.flagName(), "a " + kind.flagName()
          + " model has no fixed number of outputs per example", "Use predictProbabilities.");
    }
    return predict(features, count, spec.outputSize(), out -> out.output().toFloatArray());
  }

  /** {@code width} values per example from {@code values}, in chunks of EVAL_BATCH, gradients off. */
  private float[] predict(float[] features, int count, int width,
      java.util.function.Function<ModelOutput, float[]> values) {
    float[] noLabels = new float[count * spec.labelWidth()];
    InputChecks.features(features, count, spec.featureSize());
    InputChecks.ids(features, count, spec);
    TorchRuntime.prepareThread();
    float[] out = new float[count * width];
    try {
      for (int start = 0; start < count; start += EVAL_BATCH) {
        int n = Math.min(EVAL_BATCH, count - start);
        int from = start;
        float[] chunk = TorchRuntime.withGradMode(false, () -> {
          try (NDScope scope = new NDScope(); NDManager step = manager.newSubManager()) {
            return values.apply(new ModelOutput(infer(step, features, from, n), features, noLabels, from, n, spec));
          }
        });
        System.arraycopy(chunk, 0, out, from * width, n * width);
      }
    } catch (EngineException e) {
      throw ModelErrors.engineFailure("predict with model " + spec.modelSource().describe(), e);
    }
    return out;
  }

  @Override
  public void writeTorchScript(java.io.OutputStream out) {
    TorchRuntime.prepareThread();
    try {
      model.writeTorchScript(out);
    } catch (EngineException e) {
      throw ModelErrors.engineFailure("write model " + spec.modelSource().describe() + " as TorchScript", e);
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      manager.close();
    }
  }

  /** Whether the state moves through views of the parameters' memory (for tests). */
  boolean stateThroughViews() {
    return state.throughViews();
  }

  @Override
  public StepFootprint stepFootprint(float[] features, float[] labels, int count) {
    checkInputs(features, labels, count);
    if (count < 1) {
      throw Errors.invalidSetting("sample examples", count, "the footprint needs at least one",
          "Pass one or two training examples.");
    }
    // A training-mode forward pass moves BatchNorm's running statistics: put the state back after.
    float[] before = new float[state.size()];
    readState(before);
    try {
      int fs = spec.featureSize();
      int w = spec.labelWidth();
      // Batches of two and four (the samples repeated), never one: in training mode a BatchNorm after a
      // Linear layer (a user's factory may have one) refuses a batch of one example.
      int samples = Math.min(count, 2);
      long two = forwardTensorBytes(repeat(features, fs, samples, 2), repeat(labels, w, samples, 2), 2);
      long four = forwardTensorBytes(repeat(features, fs, samples, 4), repeat(labels, w, samples, 4), 4);
      long perExample = Math.max(1, (four - two) / 2);
      return new StepFootprint(Math.max(0, two - 2 * perExample), perExample);
    } finally {
      writeState(before);
    }
  }

  /** {@code batch} rows of {@code width} floats, cycling through the first {@code samples} rows of {@code rows}. */
  private static float[] repeat(float[] rows, int width, int samples, int batch) {
    float[] out = new float[batch * width];
    for (int i = 0; i < batch; i++) {
      System.arraycopy(rows, (i % samples) * width, out, i * width, width);
    }
    return out;
  }

  /** Bytes of the tensors a training step's forward pass and loss create at this batch. */
  long forwardTensorBytes(float[] features, float[] labels, int batchSize) {
    TorchRuntime.prepareThread();
    try (NDScope scope = new NDScope(); NDManager step = manager.newSubManager()) {
      return TorchRuntime.withGradMode(true, () -> {
        trainingLoss(step, features, labels, batchSize);
        long bytes = 0;
        for (NDArray a : step.getManagedArrays()) {
          bytes += a.size() * a.getDataType().getNumOfBytes();
        }
        return bytes;
      });
    } catch (EngineException e) {
      throw ModelErrors.engineFailure("measure a training step of model " + spec.modelSource().describe(), e);
    }
  }

  /** Native arrays this replica holds, sub-managers included; steps must leave it unchanged. */
  int liveArrays() {
    return manager.getManagedArrays().size();
  }

  /** Lengths, label values, id range, then the task's own rules (masked-LM targets, 0/1 labels). */
  private void checkInputs(float[] features, float[] labels, int count) {
    InputChecks.batch(features, labels, count, spec);
    InputChecks.ids(features, count, spec);
    objective.check(features, labels, count, spec);
  }

  /** The model's output for examples from .. from+n-1 in inference mode (temporaries in {@code step}). */
  private NDArray infer(NDManager step, float[] features, int from, int n) {
    int fs = spec.featureSize();
    NDArray x = step.create(FloatBuffer.wrap(features, from * fs, n * fs), inputShape(n));
    return model.forward(x, false);
  }

  private Shape inputShape(int batch) {
    return new Shape(batch, spec.channels(), spec.height(), spec.width());
  }
}
