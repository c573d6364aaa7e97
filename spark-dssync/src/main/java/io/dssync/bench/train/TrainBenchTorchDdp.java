package io.dssync.bench.train;

import io.dssync.bench.PythonPeer;
import io.dssync.data.DatasetSplits;
import io.dssync.errors.Errors;
import io.dssync.train.Setting;
import io.dssync.train.TrainerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code --peer torch-ddp} of {@code dssync bench train}: PyTorch DistributedDataParallel (Gloo, N
 * processes on 127.0.0.1) training our {@code cnn} on the same Fashion-MNIST files and subset with
 * the same workers, threads, batch, epochs, SGD settings, learning-rate schedule, seed policy and
 * evaluation points ({@code torch_ddp_train.py} says how each is matched). Its evaluations become a
 * {@link TrainBenchCurve}, so its time to the target is read exactly like ours.
 */
final class TrainBenchTorchDdp {
  static final String NAME = "torch-ddp";
  static final String SCRIPT = "torch_ddp_train.py";
  static final List<String> PEERS = List.of("none", NAME);

  private TrainBenchTorchDdp() {}

  /** What the peer measured: its step count, its curve, and the wall time of the whole process. */
  record Run(long steps, TrainBenchCurve curve, double wallSeconds) {
    /** Training seconds of the whole run: the clock at its last evaluation (which is after the last step). */
    double trainSeconds() {
      List<TrainBenchCurve.Point> points = curve.points();
      return points.isEmpty() ? Double.NaN : points.get(points.size() - 1).trainSeconds();
    }
  }

  /** Fails unless the peer reproduces {@code config}: the cnn model, SGD without clipping, one of its schedules. */
  static void requireSupported(TrainerConfig config) {
    if (!config.get(TrainerConfig.MODEL).equals("cnn")) {
      throw Errors.invalidSetting("--model", config.get(TrainerConfig.MODEL),
          "the " + NAME + " peer builds only the cnn model", "Pass --model cnn or --peer none.");
    }
    if (!config.get(TrainerConfig.OPTIMIZER).equals("sgd")) {
      throw Errors.invalidSetting("--optimizer", config.get(TrainerConfig.OPTIMIZER),
          "the " + NAME + " peer trains with SGD only", "Pass --optimizer sgd or --peer none.");
    }
    String schedule = config.get(TrainerConfig.LR_SCHEDULE);
    if (!List.of("constant", "cosine", "step").contains(schedule)) {
      throw Errors.invalidSetting("--lr-schedule", schedule, "the " + NAME + " peer reproduces only the constant,"
          + " cosine and step schedules", "Pass one of those or --peer none.");
    }
    // The peer's script knows the step schedule's default decay only, and never clips.
    for (Setting<?> s : List.of(TrainerConfig.LR_DECAY_FACTOR, TrainerConfig.LR_MILESTONES,
        TrainerConfig.LR_DECAY_EVERY, TrainerConfig.CLIP_NORM)) {
      if (!config.get(s).equals(s.defaultValue())) {
        throw Errors.invalidSetting(s.flag(), config.get(s), "the " + NAME + " peer trains with its default only",
            "Leave it at " + s.defaultValue() + " or pass --peer none.");
      }
    }
  }

  /** Trains with {@code config}'s settings on {@code data} (read again from {@code idxFiles}). */
  static Run run(PythonPeer python, TrainerConfig config, DatasetSplits data, List<Path> idxFiles) {
    requireSupported(config);
    long expectedSteps = Math.max(1, data.train().size() / ((long) config.workers()
        * config.get(TrainerConfig.BATCH_SIZE))) * config.get(TrainerConfig.EPOCHS);
    // A collective waits at most this long: rank 0 evaluates while the others wait at a barrier.
    long collectiveTimeoutS = Math.max(600, config.get(TrainerConfig.SYNC_TIMEOUT_MS) / 1000);
    long t0 = System.nanoTime();
    List<String> lines = python.run(SCRIPT, arguments(config, data, idxFiles, collectiveTimeoutS),
        collectiveTimeoutS + 10 * expectedSteps);
    return parse(lines, (System.nanoTime() - t0) / 1e9);
  }

  static List<String> arguments(TrainerConfig c, DatasetSplits data, List<Path> idxFiles, long timeoutS) {
    List<String> args = new ArrayList<>();
    String[] names = {"--train-images", "--train-labels", "--test-images", "--test-labels"};
    for (int i = 0; i < names.length; i++) {
      args.add(names[i]);
      args.add(idxFiles.get(i).toAbsolutePath().toString());
    }
    Object[] settings = {
        "--workers", c.workers(), "--threads", c.get(TrainerConfig.THREADS_PER_WORKER),
        "--train-limit", data.train().size(), "--test-limit", data.test().size(),
        "--classes", data.train().numClasses(), "--batch-size", c.get(TrainerConfig.BATCH_SIZE),
        "--epochs", c.get(TrainerConfig.EPOCHS), "--learning-rate", c.get(TrainerConfig.LEARNING_RATE),
        "--momentum", c.get(TrainerConfig.MOMENTUM), "--weight-decay", c.get(TrainerConfig.WEIGHT_DECAY),
        "--lr-schedule", c.get(TrainerConfig.LR_SCHEDULE), "--warmup-steps", c.get(TrainerConfig.WARMUP_STEPS),
        "--seed", c.get(TrainerConfig.SEED), "--steps-per-stage", c.get(TrainerConfig.STEPS_PER_STAGE),
        "--port", PythonPeer.freePort(), "--timeout-s", timeoutS};
    for (Object s : settings) {
      args.add(String.valueOf(s));
    }
    return args;
  }

  /**
   * Reads the script's {@code TOTAL <steps>} and {@code EVAL <step> <train_s> <accuracy> <loss>}
   * lines (other lines are ignored); separate from the process, so it is testable.
   */
  static Run parse(List<String> lines, double wallSeconds) {
    long total = -1;
    List<TrainBenchCurve.Point> points = new ArrayList<>();
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      try {
        if (f[0].equals("TOTAL") && f.length == 2) {
          total = Long.parseLong(f[1]);
        } else if (f[0].equals("EVAL") && f.length == 5) {
          points.add(new TrainBenchCurve.Point(Long.parseLong(f[1]), Double.parseDouble(f[2]),
              Double.parseDouble(f[3])));
        }
      } catch (NumberFormatException e) {
        throw new IllegalStateException("the " + NAME + " peer printed a malformed line: " + line, e);
      }
    }
    if (total < 0 || points.isEmpty() || points.get(points.size() - 1).progress() != total) {
      throw new IllegalStateException("the " + NAME + " peer did not report " + (total < 0 ? "its step count"
          : "an evaluation after its last step " + total) + "; it printed: " + String.join(" | ", lines));
    }
    return new Run(total, new TrainBenchCurve(points), wallSeconds);
  }

  /**
   * {@code "random-g2: time to 0.85 = 41.2 s; torch-ddp = 30.0 s; random-g2/torch-ddp = 1.373"}, with
   * "not reached" and a bound from the whole run's training time when only one side reached it.
   */
  static String ratioLine(String name, TrainBenchCurve ours, double oursTrainSeconds, Run ddp, double target) {
    double a = ours.timeToTarget(target);
    double b = ddp.curve().timeToTarget(target);
    String ratio = !Double.isFinite(a) && Double.isFinite(b) && oursTrainSeconds > 0
        ? String.format(Locale.ROOT, "> %.3f (%s never reached the target in its %.2f s)", oursTrainSeconds / b, name,
            oursTrainSeconds)
        : TrainBenchCurve.ratioText(a, b, ddp.trainSeconds());
    return String.format(Locale.ROOT, "%s: time to %s = %s; %s = %s; %s/%s = %s", name, target, seconds(a, ours),
        NAME, seconds(b, ddp.curve()), name, NAME, ratio);
  }

  private static String seconds(double time, TrainBenchCurve curve) {
    return Double.isFinite(time) ? String.format(Locale.ROOT, "%.1f s", time)
        : String.format(Locale.ROOT, "not reached (final accuracy %.4f)", curve.finalAccuracy());
  }
}
