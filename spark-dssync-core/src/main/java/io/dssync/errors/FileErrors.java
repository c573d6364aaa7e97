package io.dssync.errors;

import java.io.IOException;
import java.util.Optional;

/**
 * Errors of the files a fit writes and reads (checkpoints, metrics, saved models) through Hadoop's file systems.
 */
public final class FileErrors {
  private FileErrors() {}

  /** A checkpoint could not be written or read at {@code path}. */
  public static DsSyncException checkpointIo(String what, String path, Throwable cause) {
    return new DsSyncException(ErrorKind.CONFIG, "Could not " + what + " checkpoint " + path + ": "
        + cause + ". Check that the directory exists or can be created and is writable"
        + " (--checkpoint-dir / --resume take any Hadoop file system URI, e.g. file:///..., hdfs://...).", cause);
  }

  /**
   * {@code dssync export-model} cannot make a model of checkpoint {@code path}: {@code problem} says why,
   * {@code fix} what to pass instead.
   */
  public static DsSyncException checkpointExport(String path, String problem, String fix) {
    return new DsSyncException(ErrorKind.CONFIG, "Cannot export checkpoint " + path + ": " + problem + ". " + fix);
  }

  /** {@code --resume} names a directory that does not exist: a typo would otherwise silently start over. */
  public static DsSyncException resumeDirMissing(String dir) {
    return new DsSyncException(ErrorKind.CONFIG, "Invalid --resume = " + dir + ": the directory does not exist,"
        + " so there is no checkpoint to continue from. Check the path; to start a new run that writes its"
        + " checkpoints there, pass --checkpoint-dir " + dir + " instead.");
  }

  /** Resuming with a setting that changes the training trajectory from the one the checkpoint was made with. */
  public static DsSyncException checkpointMismatch(String path, String setting, Object saved, Object now) {
    return new DsSyncException(ErrorKind.CONFIG, "Cannot resume from " + path + ": it was made with "
        + setting + " = " + saved + " but this run has " + now + ". Resume with the same " + setting
        + " (the schedule, data order and learning rate depend on it) or start a fresh run.");
  }

  /** A metrics file or report folder at {@code path} that cannot be written or read; {@code fix} says what to do. */
  public static DsSyncException metricsFile(String path, String problem, String fix) {
    return new DsSyncException(ErrorKind.DATA, "File " + path + " " + problem + ". " + fix);
  }

  /** A call that opens a path through Hadoop's file systems. */
  public interface HadoopCall<T> {
    T run() throws IOException;
  }

  /**
   * Runs {@code call}, which opens {@code path} through Hadoop, and turns Java's refusal of
   * Hadoop's login into an error that names the path, this Java and the fix: Hadoop 3.4 logs in
   * through {@code Subject.getSubject}, which Java 23 refuses unless started with
   * {@code -Djava.security.manager=allow} and Java 24 and later refuse always, deep inside Hadoop
   * ("getSubject is not supported"). Anything else passes through unchanged.
   */
  public static <T> T throughHadoop(String path, HadoopCall<T> call) throws IOException {
    try {
      return call.run();
    } catch (UnsupportedOperationException e) {
      if (String.valueOf(e.getMessage()).contains("getSubject")) {
        throw new DsSyncException(ErrorKind.CONFIG, "Cannot open " + path + " on Java "
            + Runtime.version().feature() + ": Hadoop's file systems (checkpoints, metrics files, reports,"
            + " saved models) log in through Subject.getSubject, which Java 23 refuses unless started with"
            + " -Djava.security.manager=allow and Java 24 and later refuse always. " + SUPPORTED_JAVA, e);
      }
      throw e;
    }
  }

  /** The fix for a Java that Spark does not support, in every message that needs it. */
  public static final String SUPPORTED_JAVA = "Run dssync on Java 17 or 21 (on Spark 3.5: 17), the versions"
      + " Spark supports: set JAVA_HOME to such a JDK (./dssync, Maven and spark-submit use it).";

  /**
   * The warning for a Java that Spark does not support, if this is one. Spark 4 supports Java 17 and 21,
   * Spark 3.5 Java 17 (and 8 and 11, below what dssync needs). Others may train, but from Java 23 on the file
   * systems of Hadoop before 3.5 refuse to log in ({@link #throughHadoop}): said at the start of a fit, not at
   * its first checkpoint or at the model's save after hours of training.
   */
  public static Optional<String> unsupportedJava(int feature, String hadoopVersion) {
    if (feature == 17 || feature == 21) {
      return Optional.empty();
    }
    return Optional.of("Java " + feature + " is not a version Spark supports (17, and 21 from Spark 4.0)"
        + (hadoopRefuses(feature, hadoopVersion) ? "; training runs, but Hadoop " + hadoopVersion + "'s file systems"
            + " refuse it, so checkpoints (--checkpoint-dir, --resume), metrics files (--metrics-out) and saved"
            + " models fail" : "")
        + ". " + SUPPORTED_JAVA);
  }

  /**
   * Whether Hadoop {@code hadoopVersion}'s login fails on Java {@code feature}: Hadoop before 3.5 logs in
   * through {@code Subject.getSubject}, which Java 23 and later refuse; 3.5 (Spark 4.2's) does not.
   */
  public static boolean hadoopRefuses(int feature, String hadoopVersion) {
    String[] parts = hadoopVersion.split("[.-]");
    int major = Integer.parseInt(parts[0]);
    int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
    return feature >= 23 && (major < 3 || (major == 3 && minor < 5));
  }
}
