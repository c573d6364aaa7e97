package io.dssync.train;

import io.dssync.collective.AllReduceAlgorithm;
import io.dssync.collective.CrossRackPrecision;
import io.dssync.errors.Errors;
import io.dssync.metrics.RunHeader;
import io.dssync.models.LossKind;
import io.dssync.models.Models;
import io.dssync.replica.OptimizerSpec;
import io.dssync.schedule.RackLayout;
import io.dssync.schedule.ScheduleKind;
import io.dssync.schedule.ScheduleSpec;
import io.dssync.train.Setting.Group;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every training setting, typed and validated in one place. Build with {@link #builder()}; each
 * {@link Setting} is also a CLI flag ({@code --group-size}) and a Spark conf key
 * ({@code spark.dssync.groupSize}).
 */
public final class TrainerConfig implements Serializable {
  public static final Setting<Integer> WORKERS = Setting.intAtLeast("workers", 4, 1,
      "Number of workers N (barrier tasks, one model replica each); needs N free task slots.")
      .in(Group.CLUSTER);
  public static final Setting<String> SCHEDULE = Setting.oneOf("schedule", "random",
      "Group schedule: full (synchronous all-reduce), local (g = 1), random (DS-Sync), butterfly,"
          + " topology (groups inside racks, a cross-rack step every --cross-rack-period steps), auto (measure the"
          + " links, then run the schedule predicted fastest; re-plan when they change).",
      ScheduleKind.cliNames())
      .in(Group.SYNCHRONISATION);
  public static final Setting<Integer> GROUP_SIZE = Setting.intAtLeast("groupSize", 2, 1,
      "Group size g (1 <= g <= N); forced to N by 'full' and to 1 by 'local'.")
      .in(Group.SYNCHRONISATION);
  public static final Setting<Integer> SHUFFLE_PERIOD = Setting.intAtLeast("shufflePeriod", 1, 1,
      "Steps between reshuffles of the random schedule (P).")
      .in(Group.SYNCHRONISATION);
  public static final Setting<Integer> GLOBAL_AVERAGE_PERIOD = Setting.intAtLeast("globalAveragePeriod", 0, 0,
      "Average over all N workers every H steps (0 = only at the end of each stage).")
      .in(Group.SYNCHRONISATION);
  public static final Setting<Double> OUTER_LEARNING_RATE = Setting.positive("outerLearningRate", 1.0,
      "Outer optimizer at averages of all N workers (DiLoCo): the new consensus is the previous one moved by this"
          + " rate times the outer step along the replicas' averaged change (1 with --outer-momentum 0 = the plain"
          + " average; DiLoCo used 0.7 with momentum 0.9).")
      .in(Group.SYNCHRONISATION);
  public static final Setting<Double> OUTER_MOMENTUM = Setting.inUnitInterval("outerMomentum", 0.0,
      "Momentum of the outer optimizer (0 = none).")
      .in(Group.SYNCHRONISATION);
  public static final Setting<String> OUTER_OPTIMIZER = Setting.oneOf("outerOptimizer", "nesterov",
      "Outer step with --outer-momentum: nesterov (as PyTorch's SGD with nesterov=True) or sgd (heavy ball).",
      "nesterov", "sgd")
      .in(Group.SYNCHRONISATION);
  public static final Setting<String> OUTER_AT = Setting.oneOf("outerAt", "global",
      "Where the outer step runs: global (averages of all N workers, DiLoCo) or groups (every group average, each"
          + " replica from its own last average with its own momentum, NoLoCo; the stage end stays a plain average).",
      "global", "groups")
      .in(Group.SYNCHRONISATION);
  public static final Setting<String> RACKS = Setting.name("racks", "",
      "Racks of the topology schedule: executor hosts, ',' between hosts and ';' between racks"
          + " (\"h1,h2;h3,h4\"); empty = one rack per executor host.",
      RackLayout::isValid, "must be host lists like \"h1,h2;h3,h4\" with no empty name and no host twice")
      .in(Group.SYNCHRONISATION);
  public static final Setting<Integer> CROSS_RACK_PERIOD = Setting.intAtLeast("crossRackPeriod",
      ScheduleSpec.DEFAULT_CROSS_RACK_PERIOD, 1,
      "Topology schedule: groups span racks after every C-th step (C = 1: every step), inside racks otherwise.")
      .in(Group.SYNCHRONISATION);
  public static final Setting<Integer> REPLAN_EVERY = Setting.intAtLeast("replanEvery", 5, 0,
      "Auto schedule: probe the links again every R stages and re-plan when a link's bandwidth differs more than"
          + " 2x from the plan's in two probes in a row (0 = probe only at the first stage).")
      .in(Group.SYNCHRONISATION);
  public static final Setting<Integer> STEPS_PER_STAGE = Setting.intAtLeast("stepsPerStage", 100, 1,
      "Steps per barrier stage (K); the driver evaluates and reports between stages.")
      .in(Group.SYNCHRONISATION);
  public static final Setting<Integer> EPOCHS = Setting.intAtLeast("epochs", 2, 1,
      "Passes over the training data (by the whole cluster).")
      .in(Group.TRAINING);
  public static final Setting<Integer> BATCH_SIZE = Setting.intAtLeast("batchSize", 64, 1,
      "Mini-batch size per worker and step.")
      .in(Group.TRAINING);
  public static final Setting<String> OPTIMIZER = Setting.oneOf("optimizer", "sgd",
      "Local optimizer, each computed as PyTorch's so its hyperparameters carry over: sgd (torch.optim.SGD with"
          + " --momentum), sgd-nesterov (SGD with nesterov=True; needs --momentum > 0), adamw (torch.optim.AdamW:"
          + " weight decay decoupled from the moments; betas 0.9, 0.999, eps 1e-8) or adam (the same AdamW under"
          + " its earlier name, so runs that name it keep their results; not torch.optim.Adam's L2 decay, which"
          + " equals it only at --weight-decay 0).",
      "sgd", "sgd-nesterov", "adamw", "adam")
      .in(Group.TRAINING);
  public static final Setting<Double> LEARNING_RATE = Setting.positive("learningRate", 0.05,
      "Peak learning rate.")
      .in(Group.TRAINING);
  public static final Setting<Double> MOMENTUM = Setting.inUnitInterval("momentum", 0.9,
      "Momentum of sgd and sgd-nesterov (PyTorch's momentum, dampening 0); adamw and adam ignore it.")
      .in(Group.TRAINING);
  public static final Setting<Double> WEIGHT_DECAY = Setting.nonNegative("weightDecay", 0.0,
      "Weight decay: added to the gradient as L2 by sgd and sgd-nesterov (PyTorch's SGD weight_decay),"
          + " decoupled (p *= 1 - lr*wd each step) by adamw and adam (AdamW's weight_decay, whose PyTorch default"
          + " is 0.01).")
      .in(Group.TRAINING);
  public static final Setting<String> LR_SCHEDULE = Setting.oneOf("lrSchedule", "cosine",
      "Learning-rate schedule over all steps, after --warmup-steps of linear warm-up: constant, cosine (to 0),"
          + " step (x --lr-decay-factor at each of --lr-milestones or every --lr-decay-every steps; by default"
          + " x0.1 at 50% and 75%), linear (to 0), or onecycle (PyTorch's OneCycleLR with cosine annealing and"
          + " no momentum cycling: --learning-rate is its max_lr; it warms up by itself, over"
          + " --onecycle-pct-start of the run).",
      "constant", "cosine", "step", "linear", "onecycle")
      .in(Group.TRAINING);
  public static final Setting<Integer> WARMUP_STEPS = Setting.intAtLeast("warmupSteps", 0, 0,
      "Steps W of linear learning-rate warm-up, from --learning-rate/W at the first step up to --learning-rate"
          + " (every schedule but onecycle).")
      .in(Group.TRAINING);
  public static final Setting<Double> LR_DECAY_FACTOR = Setting.number("lrDecayFactor", 0.1,
      "Step schedule: what each decay multiplies the rate by (PyTorch's gamma).",
      v -> v > 0 && v <= 1, "must be a number in (0, 1]")
      .in(Group.TRAINING);
  public static final Setting<String> LR_MILESTONES = Setting.name("lrMilestones", "0.5,0.75",
      "Step schedule: when to decay, as fractions of the steps after warm-up (PyTorch's MultiStepLR"
          + " milestones divided by that number of steps).",
      StepDecay::validMilestones, "must be increasing fractions in (0, 1) separated by commas, like 0.5,0.75")
      .in(Group.TRAINING);
  public static final Setting<Integer> LR_DECAY_EVERY = Setting.intAtLeast("lrDecayEvery", 0, 0,
      "Step schedule: decay every this many steps after warm-up instead (PyTorch's StepLR step_size);"
          + " 0 = at --lr-milestones.")
      .in(Group.TRAINING);
  public static final Setting<Double> ONECYCLE_PCT_START = Setting.inUnitInterval("onecyclePctStart", 0.3,
      "Onecycle schedule: fraction of the steps that warm up (PyTorch's pct_start).")
      .in(Group.TRAINING);
  public static final Setting<Double> ONECYCLE_DIV_FACTOR = Setting.positive("onecycleDivFactor", 25.0,
      "Onecycle schedule: the cycle starts at --learning-rate divided by this (PyTorch's div_factor).")
      .in(Group.TRAINING);
  public static final Setting<Double> ONECYCLE_FINAL_DIV_FACTOR = Setting.positive("onecycleFinalDivFactor", 1e4,
      "Onecycle schedule: it ends at its starting rate divided by this (PyTorch's final_div_factor).")
      .in(Group.TRAINING);
  public static final Setting<Double> CLIP_NORM = Setting.nonNegative("clipNorm", 0.0,
      "Clip gradients by global norm before every optimizer step, as torch.nn.utils.clip_grad_norm_ does:"
          + " when the L2 norm of all of a replica's gradients together exceeds this, they are scaled down to it"
          + " (0 = off).")
      .in(Group.TRAINING);
  public static final Setting<Long> SEED = Setting.longSetting("seed", 42L,
      "Seed of the initial model, the data order and the random schedule.")
      .in(Group.TRAINING);
  public static final Setting<String> MODEL = Setting.name("model", "cnn",
      "Model to train: mlp, cnn, wrn-<depth>-<k> (wrn-16-4), bert-mlm or bert-cls (optionally sized"
          + " -L<layers>-H<heads>-D<width>, default L2-H2-D64), deepfm.",
      Models::isKnown, "must be one of " + String.join(", ", Models.patterns()))
      .in(Group.DATA_AND_MODEL);
  public static final Setting<String> MODEL_FILE = Setting.text("modelFile", "",
      "A TorchScript file written by python/dssync_export.py (any Hadoop file system path) to train instead of"
          + " a built-in --model; every replica starts from the file's weights.")
      .in(Group.DATA_AND_MODEL);
  public static final Setting<String> MODEL_INIT = Setting.oneOf("modelInit", "file",
      "Where a --model-file's replicas start: file (its own weights) or seeded (weights drawn from --seed: He-uniform"
          + " weights, BatchNorm scales 1, biases and running means 0).",
      "file", "seeded")
      .in(Group.DATA_AND_MODEL);
  public static final Setting<String> MODEL_FACTORY = Setting.text("modelFactory", "",
      "A class implementing io.dssync.models.ModelFactory (from a jar shipped with --jars) to train instead of a"
          + " built-in --model.")
      .in(Group.DATA_AND_MODEL);
  public static final Setting<String> LOSS = Setting.name("loss", "auto",
      "Loss: auto (the model's own: cross-entropy for built-in classifiers, the file's dssync_loss when it has"
          + " one), cross-entropy, binary, multi-label, mse, l1, huber, masked-lm, or custom (the file's"
          + " dssync_loss).",
      v -> v.equals("auto") || LossKind.ofFlag(v) != null, "must be auto or one of "
          + String.join(", ", LossKind.flagNames()))
      .in(Group.DATA_AND_MODEL);
  public static final Setting<Integer> THREADS_PER_WORKER = Setting.intAtLeast("threadsPerWorker", 1, 1,
      "Compute threads per replica; must equal spark.task.cpus on a cluster.")
      .in(Group.CLUSTER);
  public static final Setting<Integer> SYNC_TIMEOUT_MS = Setting.intAtLeast("syncTimeoutMs", 120_000, 100,
      "Deadline for a peer's chunk in a group all-reduce before the stage fails naming it.")
      .in(Group.ADVANCED);
  public static final Setting<String> ALL_REDUCE = Setting.oneOf("allReduce", "auto",
      "How groups of three or more average: auto (ring where a group's members sit on more than one host,"
          + " direct on one host), direct (every member with every other: fewest round trips, sums in rank order)"
          + " or ring (each member only with the next, in host order: one flow per link; equal to direct up to"
          + " rounding).",
      "auto", "direct", "ring")
      .in(Group.ADVANCED);
  public static final Setting<String> CROSS_RACK_PRECISION = Setting.oneOf("crossRackPrecision", "fp32",
      "What averages across racks carry (a group with members in more than one rack of --racks or of the"
          + " topology; under topology on racks of one size, the level across racks of its two-level averages):"
          + " fp32 (exact) or fp16 (each value's change since the stage started, as an IEEE half: half the bytes"
          + " between racks; every rank still gets the same floats).",
      "fp32", "fp16")
      .in(Group.ADVANCED);
  public static final Setting<Integer> SLOT_WAIT_MS = Setting.intAtLeast("slotWaitMs", 60_000, 0,
      "How long to wait for executors to offer N task slots before failing.")
      .in(Group.CLUSTER);
  public static final Setting<Integer> MIN_WORKERS = Setting.intAtLeast("minWorkers", 0, 0,
      "Elastic training: when executors are lost and none replaces them within --slot-wait-ms, continue with"
          + " the N' >= M slots left and grow back when slots return (0 = off: always N workers).")
      .in(Group.FAULT_TOLERANCE);
  public static final Setting<Integer> EVAL_EVERY = Setting.intAtLeast("evalEvery", 1, 1,
      "Evaluate the consensus model on the test split every this many stages (and at the end).")
      .in(Group.TRAINING);
  public static final Setting<Integer> EARLY_STOP_PATIENCE = Setting.intAtLeast("earlyStopPatience", 0, 0,
      "Stop when the validation metric has not improved for this many evaluations (0 = off: run every epoch);"
          + " when on, the result is the best evaluated consensus model. Needs validation data.")
      .in(Group.TRAINING);
  public static final Setting<Double> EARLY_STOP_MIN_DELTA = Setting.nonNegative("earlyStopMinDelta", 0.0,
      "How much an evaluation must beat the best so far to count as an improvement for --early-stop-patience.")
      .in(Group.TRAINING);
  public static final Setting<String> EARLY_STOP_METRIC = Setting.oneOf("earlyStopMetric", "metric",
      "What --early-stop-patience watches: metric (the task's: accuracy, AUC or R2, higher is better; a custom"
          + " loss, lower) or loss (the validation loss, lower is better).",
      "metric", "loss")
      .in(Group.TRAINING);
  public static final Setting<Double> SWA_START = Setting.inUnitInterval("swaStart", 0.0,
      "Stochastic weight averaging over workers: from this share of the steps on (rounded up to a stage boundary),"
          + " the result is the mean of every later stage's consensus model, with BatchNorm statistics recomputed by"
          + " one stage at learning rate 0 (0 = off).")
      .in(Group.TRAINING);
  public static final Setting<Double> SWA_LEARNING_RATE = Setting.nonNegative("swaLearningRate", 0.0,
      "Constant learning rate of the steps after --swa-start (0 = keep the schedule's rates).")
      .in(Group.TRAINING);
  public static final Setting<String> CHECKPOINT_DIR = Setting.text("checkpointDir", "",
      "Directory (any Hadoop file system: file://, hdfs://) for checkpoints; empty = none, or the --resume path.")
      .in(Group.FAULT_TOLERANCE);
  public static final Setting<Integer> CHECKPOINT_EVERY = Setting.intAtLeast("checkpointEvery", 1, 1,
      "Write a checkpoint every this many stages (and always after the last stage).")
      .in(Group.FAULT_TOLERANCE);
  public static final Setting<Integer> CHECKPOINT_KEEP = Setting.intAtLeast("checkpointKeep", 3, 1,
      "Keep the newest this many checkpoints; older ones are deleted.")
      .in(Group.FAULT_TOLERANCE);
  public static final Setting<String> RESUME = Setting.text("resume", "",
      "Checkpoint directory to continue from (the newest checkpoint that verifies); empty = start fresh.")
      .in(Group.FAULT_TOLERANCE);
  public static final Setting<Integer> MAX_STAGE_ATTEMPTS = Setting.intAtLeast("maxStageAttempts", 3, 1,
      "Attempts per stage when an executor or barrier task is lost; each retry restarts from the last consensus.")
      .in(Group.FAULT_TOLERANCE);
  public static final Setting<String> BAD_RECORDS = Setting.oneOf("badRecords", "fail",
      "Malformed input rows: fail (stop naming the first bad row) or skip (drop and count them).",
      "fail", "skip")
      .in(Group.DATA_AND_MODEL);

  /** All settings in documentation order. */
  public static final List<Setting<?>> ALL = List.of(
      WORKERS, SCHEDULE, GROUP_SIZE, SHUFFLE_PERIOD, GLOBAL_AVERAGE_PERIOD, OUTER_LEARNING_RATE, OUTER_MOMENTUM,
      OUTER_OPTIMIZER, OUTER_AT, RACKS, CROSS_RACK_PERIOD, REPLAN_EVERY,
      STEPS_PER_STAGE,
      EPOCHS, BATCH_SIZE, OPTIMIZER, LEARNING_RATE, MOMENTUM, WEIGHT_DECAY, LR_SCHEDULE,
      WARMUP_STEPS, LR_DECAY_FACTOR, LR_MILESTONES, LR_DECAY_EVERY, ONECYCLE_PCT_START, ONECYCLE_DIV_FACTOR,
      ONECYCLE_FINAL_DIV_FACTOR, CLIP_NORM,
      SEED, MODEL, MODEL_FILE, MODEL_INIT, MODEL_FACTORY, LOSS, THREADS_PER_WORKER, SYNC_TIMEOUT_MS,
      ALL_REDUCE, CROSS_RACK_PRECISION,
      SLOT_WAIT_MS, MIN_WORKERS, EVAL_EVERY, EARLY_STOP_PATIENCE, EARLY_STOP_MIN_DELTA, EARLY_STOP_METRIC,
      SWA_START, SWA_LEARNING_RATE,
      CHECKPOINT_DIR, CHECKPOINT_EVERY, CHECKPOINT_KEEP, RESUME, MAX_STAGE_ATTEMPTS, BAD_RECORDS);

  private final Map<String, Object> values;

  TrainerConfig(Map<String, Object> values) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  public static TrainerConfigBuilder builder() {
    return new TrainerConfigBuilder();
  }

  @SuppressWarnings("unchecked")
  public <T> T get(Setting<T> setting) {
    return (T) values.get(setting.name());
  }

  public Map<String, Object> asMap() {
    return values;
  }

  public int workers() {
    return get(WORKERS);
  }

  /** The fewest workers a stage may run with: --min-workers, or N when elastic training is off. */
  public int minWorkers() {
    int m = get(MIN_WORKERS);
    return m == 0 ? workers() : m;
  }

  public AllReduceAlgorithm allReduceAlgorithm() {
    return AllReduceAlgorithm.parse(ALL_REDUCE.flag(), get(ALL_REDUCE));
  }

  public CrossRackPrecision crossRackPrecision() {
    return CrossRackPrecision.ofLabel(get(CROSS_RACK_PRECISION));
  }

  public ScheduleKind scheduleKind() {
    return ScheduleKind.parse(get(SCHEDULE));
  }

  /**
   * One line per setting given a value that this run never reads (a typo'd schedule, or a flag kept from another
   * run), so the user does not believe it took effect.
   */
  public List<String> ignoredSettings() {
    return IgnoredSettings.of(this);
  }

  /** The effective group size: N for full, 1 for local, else the configured g. */
  public int groupSize() {
    return scheduleKind().effectiveGroupSize(workers(), get(GROUP_SIZE));
  }

  public ScheduleSpec scheduleSpec() {
    return new ScheduleSpec(scheduleKind(), workers(), groupSize(), get(SHUFFLE_PERIOD),
        get(GLOBAL_AVERAGE_PERIOD), get(SEED), get(CROSS_RACK_PERIOD));
  }

  public RackLayout rackLayout() {
    return RackLayout.parse(get(RACKS));
  }

  /** Whether training reads {@code --racks}: topology groups by them, fp16 sends halves between them. */
  public boolean usesRacks() {
    return scheduleKind() == ScheduleKind.TOPOLOGY || crossRackPrecision() == CrossRackPrecision.FP16;
  }

  /** The loss chosen with {@code --loss}, or null for auto (the model's own). */
  public LossKind loss() {
    return LossKind.ofFlag(get(LOSS));
  }

  /**
   * Where the model comes from, as the settings say: a model file, a factory class, or the built-in
   * {@code --model} (null: the spec's built-in name). The file's bytes are read by {@link ModelFiles}.
   */
  public boolean hasOwnModel() {
    if (!get(MODEL_FILE).isEmpty() && !get(MODEL_FACTORY).isEmpty()) {
      throw Errors.invalidFlag("modelFactory", get(MODEL_FACTORY), "a run trains one model, and "
          + MODEL_FILE.flag() + " " + get(MODEL_FILE) + " is given too", "Keep one of the two.");
    }
    return !get(MODEL_FILE).isEmpty() || !get(MODEL_FACTORY).isEmpty();
  }

  public OptimizerSpec optimizerSpec() {
    double decay = get(WEIGHT_DECAY);
    OptimizerSpec spec = switch (get(OPTIMIZER)) {
      case "adam" -> OptimizerSpec.adam(decay);
      case "adamw" -> OptimizerSpec.adamw(decay);
      case "sgd-nesterov" -> OptimizerSpec.sgdNesterov(get(MOMENTUM), decay);
      default -> OptimizerSpec.sgd(get(MOMENTUM), decay);
    };
    return spec.withClipNorm(get(CLIP_NORM));
  }

  OuterOptimizer outerOptimizer() {
    return new OuterOptimizer(get(OUTER_LEARNING_RATE), get(OUTER_MOMENTUM), "nesterov".equals(get(OUTER_OPTIMIZER)),
        "groups".equals(get(OUTER_AT)));
  }

  public LearningRateSchedule learningRateSchedule(long totalSteps) {
    return new LearningRateSchedule(get(LR_SCHEDULE), get(LEARNING_RATE), get(WARMUP_STEPS), totalSteps,
        new StepDecay(get(LR_DECAY_FACTOR), StepDecay.parseMilestones(get(LR_MILESTONES)), get(LR_DECAY_EVERY)),
        new OneCycle(get(ONECYCLE_PCT_START), get(ONECYCLE_DIV_FACTOR), get(ONECYCLE_FINAL_DIV_FACTOR)));
  }

  /** One line per setting, for logs and the training summary. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    values.forEach((k, v) -> sb.append(k).append('=').append(v).append(' '));
    return sb.toString().trim();
  }

  /** The run line of a metrics file for this configuration, under the name {@code run}. */
  public RunHeader runHeader(String run) {
    return new RunHeader(run, get(SCHEDULE), groupSize(), workers(), describe());
  }
}
