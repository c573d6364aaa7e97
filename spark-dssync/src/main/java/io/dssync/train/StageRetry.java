package io.dssync.train;

import io.dssync.errors.ErrorKind;
import java.io.Serializable;

/** One failed attempt of a stage that the trainer retried from the last consensus model. */
public record StageRetry(int stage, int attempt, ErrorKind kind, String message) implements Serializable {}
