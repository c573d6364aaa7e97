package io.dssync.errors;

/**
 * Errors of models and engines: model files, factories, libtorch, and the PyTorch peers of the benchmarks.
 */
public final class ModelErrors {
  private ModelErrors() {}

  public static DsSyncException engineFailure(String what, Throwable cause) {
    return new DsSyncException(ErrorKind.ENGINE, "Model engine failed to " + what + ": " + cause.getMessage(), cause);
  }

  /** A model file ({@code --model-file}) that cannot be trained: {@code problem} says why, {@code fix} what to do. */
  public static DsSyncException scriptFile(String path, String problem, String fix) {
    return new DsSyncException(ErrorKind.CONFIG, "Cannot train model file " + path + ": " + problem + ". " + fix);
  }

  /** The libtorch of the engine could not load a TorchScript file that PyTorch {@code writtenBy} wrote. */
  public static DsSyncException modelFileLoad(String path, String writtenBy, String engineVersion, Throwable cause) {
    String first = String.valueOf(cause.getMessage()).lines().findFirst().orElse("");
    return new DsSyncException(ErrorKind.CONFIG, "Cannot load model file " + path + ": it was written by PyTorch "
        + writtenBy + " and the engine runs libtorch " + engineVersion + ", which failed with: " + first
        + ". Export the model with a PyTorch no newer than " + engineVersion + ".", cause);
  }

  /** A {@code ModelFactory} class that the JVM building a replica ({@code where}: "on executor 3") cannot load. */
  public static DsSyncException factoryNotFound(String className, String where, Throwable cause) {
    return new DsSyncException(ErrorKind.CONFIG, "Model factory class " + className + " cannot be loaded " + where
        + " (" + cause + "). Ship the jar that holds it with the application: spark-submit --jars my-models.jar (or"
        + " spark.jars), or add it to the class path of a local run.", cause);
  }

  /** A saved model at {@code path} that cannot be written or read as expected. */
  public static DsSyncException modelFile(String path, String problem) {
    return new DsSyncException(ErrorKind.DATA, "File " + path + " " + problem
        + ". Save it again with model.write().save(path); check the path.");
  }

  /** A benchmark's PyTorch peer ({@code peer}: "torch DDP", ...) found no Python that imports torch. */
  public static DsSyncException peerUnavailable(String peer, String tried) {
    return new DsSyncException(
        ErrorKind.CONFIG,
        "The " + peer + " benchmark peer needs PyTorch with torch.distributed, which was not found (tried "
            + tried + "). Install Debian's python3-torch (apt-get install python3-torch), or set"
            + " DSSYNC_PYTHON to a Python interpreter that can import torch.");
  }

  public static DsSyncException peerFailed(String peer, String what, String output) {
    return new DsSyncException(
        ErrorKind.ENGINE, "The " + peer + " benchmark peer failed: " + what + ". Its last output: " + output);
  }
}
