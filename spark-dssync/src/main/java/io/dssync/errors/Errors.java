package io.dssync.errors;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Every user-facing error of spark-dssync, built in one place. Messages say what value was bad,
 * what is allowed, and what to do about it.
 */
public final class Errors {
  private Errors() {}

  /** A setting {@code key} has value {@code value}, which breaks {@code rule}; {@code fix} says what to do. */
  public static DsSyncException invalidSetting(String key, Object value, String rule, String fix) {
    return new DsSyncException(
        ErrorKind.CONFIG, "Invalid " + key + " = " + value + ": " + rule + ". " + fix);
  }

  /**
   * A training setting with a bad value, named by its command-line flag: {@code settingName} is the
   * setting's name ({@code groupSize}), the message says {@code --group-size}.
   */
  public static DsSyncException invalidFlag(String settingName, Object value, String rule, String fix) {
    return invalidSetting(flag(settingName), value, rule, fix);
  }

  /** The command-line flag of a setting: camelCase name to --kebab-case ({@code groupSize} -> {@code --group-size}). */
  public static String flag(String settingName) {
    return "--" + settingName.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
  }

  /**
   * A name (model, dataset, schedule, optimizer ...) that is not one of {@code known}; a known name
   * within two edits of it (a typo) is suggested first.
   */
  public static DsSyncException unknownName(String what, String value, Object[] known) {
    String guess = closest(value, known);
    return new DsSyncException(
        ErrorKind.CONFIG,
        "Unknown " + what + " '" + value + "'" + (guess == null ? "" : " (did you mean " + guess + "?)")
            + ". Choose one of " + Arrays.toString(known) + ".");
  }

  /** A {@code spark.dssync.*} key in Spark's configuration that no setting has: a typo would go unnoticed. */
  public static DsSyncException unknownSparkConfKey(String key, Object[] known) {
    String guess = closest(key, known);
    return new DsSyncException(ErrorKind.CONFIG, "Unknown Spark conf key " + key
        + (guess == null ? "" : " (did you mean " + guess + "?)") + ": no setting of spark-dssync has that name."
        + " Correct or remove it; docs/configuration.md lists every key.");
  }

  /** The first of {@code known} fewest edits from {@code value}, if at most two and fewer than half its length. */
  public static String closest(String value, Object[] known) {
    if (value == null) {
      return null;
    }
    String typed = value.toLowerCase(Locale.ROOT);
    int limit = Math.min(2, (value.length() - 1) / 2);
    String best = null;
    int bestEdits = Integer.MAX_VALUE;
    for (Object k : known) {
      String name = String.valueOf(k);
      int e = edits(typed, name.toLowerCase(Locale.ROOT));
      if (e <= limit && e < bestEdits) {
        best = name;
        bestEdits = e;
      }
    }
    return best;
  }

  /** Levenshtein distance: insertions, deletions and substitutions that turn {@code a} into {@code b}. */
  private static int edits(String a, String b) {
    int[] row = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      row[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      int diagonal = row[0];
      row[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int above = row[j];
        int substitute = diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1), substitute);
        diagonal = above;
      }
    }
    return row[b.length()];
  }

  public static DsSyncException badRecord(String where, String problem, String fix) {
    return new DsSyncException(ErrorKind.DATA, "Bad record " + where + ": " + problem + ". " + fix);
  }

  public static DsSyncException datasetUnavailable(String dataset, String tried, String howToGet) {
    return new DsSyncException(
        ErrorKind.DATASET,
        "Dataset " + dataset + " is not available (tried: " + tried + "). " + howToGet);
  }

  public static DsSyncException datasetCorrupt(String dataset, String file, String problem) {
    return new DsSyncException(
        ErrorKind.DATASET,
        "Dataset " + dataset + " file " + file + " failed verification: " + problem
            + ". Delete the file so it is fetched again.");
  }

  /**
   * Rank {@code rank} waited for {@code what} from rank {@code peer} at step {@code step} and it did
   * not arrive within {@code timeoutMs}.
   */
  public static DsSyncException peerTimeout(int rank, int peer, long step, String what, long timeoutMs) {
    return peerTimeout(rank, peer, step, what, timeoutMs, List.of());
  }

  /**
   * Like {@link #peerTimeout(int, int, long, String, long)}, with what the silent peer said it was
   * doing, and the rank it waits for in turn, and so on ({@code chain}: one clause per rank).
   */
  public static DsSyncException peerTimeout(int rank, int peer, long step, String what, long timeoutMs,
      List<String> chain) {
    String waited = "Rank " + rank + " waited " + timeoutMs + " ms at step " + step + " for " + what
        + " from rank " + peer + ", which did not arrive.";
    String fix = " raise " + flag("syncTimeoutMs") + " if it is only slow.";
    return new DsSyncException(ErrorKind.SYNC_TIMEOUT, chain.isEmpty()
        ? waited + " The peer is slow, stuck or lost;" + fix
        : waited + " Behind it: " + String.join("; ", chain) + ". The last rank named is slow, stuck or lost;" + fix);
  }

  /** Rank {@code rank} could not learn its peers' addresses at the start of a stage. */
  public static DsSyncException rendezvousFailure(int rank, Throwable cause) {
    return new DsSyncException(
        ErrorKind.TRANSPORT,
        "Rank " + rank + " could not exchange addresses with the other tasks of its barrier stage: "
            + cause.getMessage(),
        cause);
  }

  public static DsSyncException transportFailure(int rank, int peer, long step, String what, Throwable cause) {
    return new DsSyncException(
        ErrorKind.TRANSPORT,
        "Rank " + rank + " failed to " + what + " rank " + peer + " at step " + step + ": "
            + cause.getMessage(),
        cause);
  }

  public static DsSyncException lengthMismatch(String what, int expected, int actual) {
    return new DsSyncException(
        ErrorKind.DATA, what + " has length " + actual + " but " + expected + " was expected.");
  }

  public static DsSyncException diverged(long step, double loss) {
    return diverged("loss is " + loss + " at step " + step, "Lower the learning rate or check the input data.");
  }

  /**
   * A value's change since the stage started does not fit in the IEEE half that
   * {@code --cross-rack-precision fp16} sends between racks.
   */
  public static DsSyncException halfOverflow(long step, int index, float change) {
    return diverged("parameter " + index + " changed by " + change + " since the stage started, at step " + step
        + ", beyond the +-65504 an IEEE half holds (--cross-rack-precision fp16)",
        "Lower the learning rate, or use --cross-rack-precision fp32.");
  }

  private static DsSyncException diverged(String what, String fix) {
    return new DsSyncException(ErrorKind.DIVERGED,
        "Training diverged: " + what + ". The last consensus model (before this stage) is kept. " + fix);
  }

  private static final java.util.regex.Pattern REMOTE =
      java.util.regex.Pattern.compile("io\\.dssync\\.errors\\.DsSyncException\\[(\\w+)\\]: ([^\\n]*)");

  /**
   * Turns the failure of a Spark job that ran training tasks into the DsSyncException a task threw
   * (same kind and message: Spark ships only its text to the driver), or a STAGE_FAILED error.
   */
  public static DsSyncException fromTaskFailure(Throwable failure) {
    return fromTaskFailure(failure, "A training stage");
  }

  /** Like {@link #fromTaskFailure(Throwable)} for the job named {@code job} ("A training stage"). */
  public static DsSyncException fromTaskFailure(Throwable failure, String job) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof DsSyncException d) {
        return d;
      }
      java.util.regex.Matcher m = REMOTE.matcher(String.valueOf(t.getMessage()));
      if (m.find()) {
        return new DsSyncException(ErrorKind.valueOf(m.group(1)), m.group(2), failure);
      }
    }
    String text = String.valueOf(failure.getMessage());
    int eol = text.indexOf('\n');
    return new DsSyncException(ErrorKind.STAGE_FAILED, job + " failed: " + (eol > 0 ? text.substring(0, eol) : text)
        + killedExecutorHint(text) + heapHint(text), failure);
  }

  private static final java.util.regex.Pattern KILLED = java.util.regex.Pattern.compile("exit(?:ed with)? code 137\\b");

  /**
   * An executor that exited with code 137 was killed (SIGKILL), most often for memory: Spark says
   * only "Command exited with code 137" (standalone) or "exit code 137" (Kubernetes).
   */
  static String killedExecutorHint(String sparkFailure) {
    return KILLED.matcher(sparkFailure).find()
        ? " An executor exited with code 137: its JVM was killed (SIGKILL), by the kernel's OOM killer or a"
            + " container's memory limit unless someone killed it on purpose. A replica's tensors live outside the"
            + " JVM heap: give executors more memory outside the heap (spark.executor.memoryOverhead on YARN and"
            + " Kubernetes, more worker memory on a standalone cluster) or train with a smaller --batch-size."
        : "";
  }

  /**
   * A task that ran out of Java heap: the examples are arrays on the heap (of the driver in local
   * mode, where Spark's "executor driver" runs the tasks; of the executors otherwise).
   */
  static String heapHint(String sparkFailure) {
    return sparkFailure.contains("OutOfMemoryError: Java heap space")
        ? " A task ran out of Java heap in " + heapAdvice(sparkFailure.contains("executor driver)")) : "";
  }

  /** Which heap to raise: the driver's ({@code onDriver}, local mode) or an executor's. */
  private static String heapAdvice(boolean onDriver) {
    return (onDriver
        ? "the driver's JVM, which runs the tasks in local mode: raise DSSYNC_DRIVER_MEMORY for ./dssync (default"
            + " 6g), spark-submit's --driver-memory, or DSSYNC_KERNEL_MEMORY when installing the notebook kernel"
        : "an executor's JVM: raise spark.executor.memory (spark-submit's --executor-memory)")
        + ", or train on fewer examples (--train-limit).";
  }

  /**
   * Allocating {@code bytes} for {@code what} failed: the JVM's heap ({@code maxHeap}, of which
   * {@code usedHeap} in use) is too small; {@code onDriver} when the driver runs the task.
   */
  public static DsSyncException outOfHeap(String what, long bytes, long maxHeap, long usedHeap, boolean onDriver) {
    return new DsSyncException(ErrorKind.CONFIG, String.format(Locale.ROOT, "Out of Java heap for %s (%d MiB; the"
        + " heap holds at most %d MiB, %d MiB of it in use): it is ", what, bytes >> 20, maxHeap >> 20,
        usedHeap >> 20) + heapAdvice(onDriver));
  }

  /**
   * The driver's own thread ran out of heap outside the allocations {@link #outOfHeap} guards (Spark
   * reading a spilled broadcast back, say): which of them fails first depends on the collector.
   */
  public static DsSyncException driverOutOfHeap(long maxHeap, long usedHeap) {
    return new DsSyncException(ErrorKind.CONFIG, String.format(Locale.ROOT, "Out of Java heap in the driver (the"
        + " heap holds at most %d MiB, %d MiB of it in use): it is ", maxHeap >> 20, usedHeap >> 20)
        + heapAdvice(true));
  }

  /** A user's stage callback threw after stage {@code stage} (counted from 1): the fit ends there. */
  public static DsSyncException callbackFailed(String callbackClass, int stage, RuntimeException cause) {
    return new DsSyncException(ErrorKind.CALLBACK, "The stage callback " + callbackClass + " threw after stage "
        + stage + ": " + cause + ". Training stopped there; the consensus of that stage is kept as the partial"
        + " result and the checkpoints written so far stay as they are. Fix the callback, then resume from the"
        + " checkpoint directory with --resume.", cause);
  }

  /**
   * The thread running a fit was interrupted {@code when} ("during stage 3 (steps 200-299), whose
   * Spark job was cancelled"); {@code keptAfterStep} is the last step of the consensus kept as the
   * partial result, or -1 when nothing was trained.
   */
  public static DsSyncException interrupted(String when, long keptAfterStep) {
    return new DsSyncException(ErrorKind.INTERRUPTED, "Training was interrupted " + when + ": nothing more is"
        + " trained" + (keptAfterStep >= 0 ? "; the consensus after step " + keptAfterStep + " is kept as the partial"
        + " result, and checkpoints written so far stay as they are." : "."));
  }

  /** A running stage lost executors: it needs {@code needed} slots and the cluster offered {@code available}. */
  public static DsSyncException slotsLost(int needed, int available, long waitedMs) {
    return new DsSyncException(
        ErrorKind.STAGE_FAILED,
        "The stage needs " + needed + " task slots but the cluster has offered only " + available + " for "
            + waitedMs + " ms (executors were lost); it was cancelled and is retried from the last consensus."
            + " Add executors, or allow fewer workers with --min-workers.");
  }

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

  /** A {@code ModelFactory} class that the JVM building a replica cannot load. */
  public static DsSyncException factoryNotFound(String className, Throwable cause) {
    String where = onExecutor() ? "on executor " + org.apache.spark.SparkEnv.get().executorId() : "on the driver";
    return new DsSyncException(ErrorKind.CONFIG, "Model factory class " + className + " cannot be loaded " + where
        + " (" + cause + "). Ship the jar that holds it with the application: spark-submit --jars my-models.jar (or"
        + " spark.jars), or add it to the class path of a local run.", cause);
  }

  private static boolean onExecutor() {
    org.apache.spark.SparkEnv env = org.apache.spark.SparkEnv.get();
    return env != null && !"driver".equals(env.executorId());
  }

  /** The model file's own loss ({@code dssync_loss}) returned {@code loss} at {@code step}. */
  public static DsSyncException customLossNotFinite(long step, double loss) {
    return diverged("the model file's own loss (dssync_loss) returned " + loss + " at step " + step,
        "Check dssync_loss against the labels it gets (float32, batch x label width): a log of zero or a division"
            + " by zero gives NaN; or lower the learning rate.");
  }

  /**
   * Rank {@code rank} was asked to average in {@code group}, which does not contain it: every
   * worker must pass the group the schedule gives its own rank.
   */
  public static DsSyncException notInGroup(int rank, int[] group) {
    return new DsSyncException(
        ErrorKind.CONFIG,
        "Rank " + rank + " is not a member of group " + Arrays.toString(group)
            + ". Pass the group that GroupSchedule.groupOf(rank, step) returns for this rank.");
  }

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

  /**
   * A model that cannot read the dataset's examples; {@code suggestion} names a model (and preset)
   * that can.
   */
  public static DsSyncException modelDoesNotFitData(String model, String dataset, String holds, String reads,
      String suggestion) {
    return invalidSetting("--model", model, "dataset " + dataset + " holds " + holds + ", which model " + model
        + " cannot read (it reads " + reads + ")", suggestion);
  }

  /** Resuming with a setting that changes the training trajectory from the one the checkpoint was made with. */
  public static DsSyncException checkpointMismatch(String path, String setting, Object saved, Object now) {
    return new DsSyncException(ErrorKind.CONFIG, "Cannot resume from " + path + ": it was made with "
        + setting + " = " + saved + " but this run has " + now + ". Resume with the same " + setting
        + " (the schedule, data order and learning rate depend on it) or start a fresh run.");
  }

  /** A stage kept failing with retryable errors; {@code last} is the final attempt's error. */
  public static DsSyncException stageAttemptsExhausted(int stage, int attempts, DsSyncException last) {
    return new DsSyncException(last.kind(), "Stage " + stage + " failed " + attempts + " times ("
        + flag("maxStageAttempts") + " = " + attempts + "); giving up. Last error: " + last.getMessage()
        + " Check executor logs for lost executors, or raise " + flag("maxStageAttempts") + ".", last);
  }

  /** A failure injected on purpose by the spark.dssync.test.* hooks (tests only). */
  public static DsSyncException injectedFault(int rank, long step, String how) {
    return new DsSyncException(ErrorKind.STAGE_FAILED, "Injected test fault (" + how + ") at step " + step
        + " on rank " + rank + " (spark.dssync.test.failAtStep is set; unset it for real training).");
  }

  /** A saved model at {@code path} that cannot be written or read as expected. */
  public static DsSyncException modelFile(String path, String problem) {
    return new DsSyncException(ErrorKind.DATA, "File " + path + " " + problem
        + ". Save it again with model.write().save(path); check the path.");
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
   * The standalone master at {@code masterUrl} refused or did not answer this application's first
   * RPC; {@code authenticated} says whether the application offered a secret.
   */
  public static DsSyncException masterRefused(String masterUrl, boolean authenticated, String reason) {
    String fix = authenticated
        ? "Check the master URL and that the master runs; the secret (DSSYNC_AUTH_SECRET_FILE) must be the one"
            + " its daemons use (<cluster dir>/auth/secret of standalone-cluster with DSSYNC_CLUSTER_AUTH=1)."
        : "Check the master URL and that the master runs. A cluster started with authentication"
            + " (standalone-cluster with DSSYNC_CLUSTER_AUTH=1) accepts only applications submitted with"
            + " dssync-submit --auth and DSSYNC_AUTH_SECRET_FILE set to its secret.";
    return new DsSyncException(ErrorKind.CONFIG, "The standalone master " + masterUrl
        + " did not accept this application (" + (authenticated ? "with" : "without") + " authentication): "
        + reason + ". " + fix);
  }

  /** The executor's block store refused a chunk (usually: not enough storage memory). */

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

  /** A table path (any Hadoop file system) that matches no file or directory. */
  public static DsSyncException tableNotFound(String path) {
    return new DsSyncException(ErrorKind.CONFIG, "Table " + path + " does not exist: no file or directory matches"
        + " it. Check the path and its file system scheme (file:///..., hdfs://...); a relative path is relative"
        + " to the working directory of the driver.");
  }

  /** The file system of a table's {@code path} could not be asked whether it exists. */
  public static DsSyncException tableUnopenable(String path, Throwable cause) {
    return new DsSyncException(ErrorKind.CONFIG, "Table " + path + " cannot be opened: " + firstLine(cause.getMessage())
        + ". Check the path's file system scheme (file:///..., hdfs://...) and that its Hadoop file system is on the"
        + " class path.", cause);
  }

  /** Spark's {@code format} reader could not read the table at {@code path}. */
  public static DsSyncException tableUnreadable(String path, String format, Throwable cause) {
    return new DsSyncException(ErrorKind.DATA, "Table " + path + " could not be read as " + format + ": "
        + firstLine(cause.getMessage()) + ". Check that the files are " + format
        + " (or name their format), and that every file of the folder is.", cause);
  }

  /** A table with no rows at all, or none left once its bad records were dropped ({@code why}). */
  public static DsSyncException emptyTable(String table, String why) {
    return new DsSyncException(ErrorKind.DATA, "Table " + table + " is empty: " + why
        + ". Training needs at least one example; check the path, the filter that made the table, or the"
        + " bad records named in the executor logs.");
  }

  /** {@code table} has no {@code role} ("feature", "label" ...) column {@code column}; suggests a close name. */
  public static DsSyncException missingColumn(String table, String role, String column, String[] available) {
    String guess = closest(column, available);
    return new DsSyncException(ErrorKind.CONFIG, "Table " + table + " has no " + role + " column '" + column + "'"
        + (guess == null ? "" : " (did you mean " + guess + "?)") + "; its columns are "
        + Arrays.toString(available) + ". Name one of those columns as the " + role + " column.");
  }

  /**
   * Column {@code column} of {@code table}, the {@code role} column, has {@code type}, which does
   * not fit: {@code allowed} says what fits, {@code fix} how to get there.
   */
  public static DsSyncException columnType(String table, String role, String column, String type, String allowed,
      String fix) {
    return new DsSyncException(ErrorKind.CONFIG, "The " + role + " column '" + column + "' of table " + table
        + " has type " + type + "; " + allowed + ". " + fix);
  }

  /**
   * Rows of {@code column} of {@code table} hold {@code what} of different sizes: the row at
   * {@code where} has {@code actual}, the first row ({@code firstWhere}) {@code expected}.
   */
  public static DsSyncException unequalRows(String table, String column, String what, String where, String actual,
      String firstWhere, String expected) {
    return new DsSyncException(ErrorKind.DATA, "Column '" + column + "' of table " + table + " holds " + what
        + " of different sizes: " + where + " has " + actual + ", but the first row (" + firstWhere + ") has "
        + expected + ". Every example must have the same size: pad, crop or filter the rows before training.");
  }

  /** A training table and its validation table ({@code --test-data}) whose examples differ in {@code what}. */
  public static DsSyncException splitsDiffer(String train, String validation, String what, Object inTrain,
      Object inValidation) {
    return new DsSyncException(ErrorKind.CONFIG, "The validation table " + validation + " does not fit the training"
        + " table " + train + ": its " + what + " is " + inValidation + " but the training table's is " + inTrain
        + ". Prepare both tables the same way (same columns, lengths and image sizes).");
  }

  private static String firstLine(String text) {
    String t = String.valueOf(text);
    int eol = t.indexOf('\n');
    return eol > 0 ? t.substring(0, eol) : t;
  }
}
