package io.dssync.errors;

/**
 * The one exception type spark-dssync throws for problems a user can act on. Every instance is
 * built by {@link Errors}, so each message names the bad value and how to fix it.
 */
public class DsSyncException extends RuntimeException {
  private final ErrorKind kind;
  private transient Object partialResult;

  public DsSyncException(ErrorKind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public DsSyncException(ErrorKind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public ErrorKind kind() {
    return kind;
  }

  /**
   * What training had achieved before it stopped (the last consensus model and its history), when
   * the error ended a training run; empty otherwise.
   */
  public java.util.Optional<Object> partialResult() {
    return java.util.Optional.ofNullable(partialResult);
  }

  public DsSyncException withPartialResult(Object result) {
    this.partialResult = result;
    return this;
  }

  /** Carries the kind, so the driver can rebuild the error from a remote task's failure text. */
  @Override
  public String toString() {
    return DsSyncException.class.getName() + "[" + kind + "]: " + getMessage();
  }
}
