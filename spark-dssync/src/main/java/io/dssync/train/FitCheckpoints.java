package io.dssync.train;

import io.dssync.errors.Errors;
import io.dssync.errors.FileErrors;
import io.dssync.models.ModelSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fit's checkpoints: where they go (--checkpoint-dir, else the --resume directory, else nowhere), writing one
 * after a stage, and the verified one that --resume starts from.
 */
final class FitCheckpoints {
  private static final Logger LOG = LoggerFactory.getLogger(FitCheckpoints.class);
  /** Settings that do not change what is computed, so a resumed run may change them. */
  private static final List<String> FREE_ON_RESUME = List.of(
      TrainerConfig.THREADS_PER_WORKER.name(), TrainerConfig.SYNC_TIMEOUT_MS.name(),
      TrainerConfig.SLOT_WAIT_MS.name(), TrainerConfig.EVAL_EVERY.name(), TrainerConfig.CHECKPOINT_DIR.name(),
      TrainerConfig.CHECKPOINT_EVERY.name(), TrainerConfig.CHECKPOINT_KEEP.name(), TrainerConfig.RESUME.name(),
      TrainerConfig.MAX_STAGE_ATTEMPTS.name(), TrainerConfig.MIN_WORKERS.name());

  private final TrainerConfig config;
  private final Configuration hadoop;
  private final String runId;
  /** Null when the fit writes no checkpoints. */
  private final CheckpointStore store;
  /** Made once per fit: a TorchScript file's digest is the same at every checkpoint. */
  private final CheckpointedModel model;

  FitCheckpoints(TrainerConfig config, Configuration hadoop, String runId, ModelSpec spec) {
    this.config = config;
    this.hadoop = hadoop;
    this.runId = runId;
    String dir = config.get(TrainerConfig.CHECKPOINT_DIR);
    if (dir.isEmpty()) {
      dir = config.get(TrainerConfig.RESUME);
    }
    this.store = dir.isEmpty() ? null : new CheckpointStore(dir, hadoop).ensureDirectory();
    this.model = store == null ? null : CheckpointedModel.of(spec);
  }

  /** Whether stage {@code stage} (from 0) of {@code stages} ends with a checkpoint by --checkpoint-every. */
  boolean dueAfter(int stage, int stages) {
    return store != null && ((stage + 1) % config.get(TrainerConfig.CHECKPOINT_EVERY) == 0 || stage == stages - 1);
  }

  /** Writes the consensus after stage {@code stage} (from 0), which ended at step {@code end}, if checkpointing. */
  void write(long end, int stage, long totalSteps, ConsensusState consensus, FitProgress progress) {
    if (store == null) {
      return;
    }
    store.write(new Checkpoint(end, stage + 1, totalSteps, runId, config.get(TrainerConfig.SEED), settingsText(),
        consensus.state(), consensus.optimizerState(), consensus.optimizerSteps(), model, progress),
        config.get(TrainerConfig.CHECKPOINT_KEEP));
  }

  /** The newest verified checkpoint under --resume, checked against this run; null to start fresh. */
  Checkpoint resume(long totalSteps, ConsensusState fresh) {
    String dir = config.get(TrainerConfig.RESUME);
    if (dir.isEmpty()) {
      return null;
    }
    CheckpointStore.Loaded loaded = new CheckpointStore(dir, hadoop).newestValid();
    if (loaded.checkpoint().isEmpty()) {
      LOG.warn("--resume {}: no usable checkpoint there ({} skipped as unreadable), so training starts fresh"
          + " from step 0 and writes its checkpoints there", dir, loaded.skipped().size());
      return null;
    }
    Checkpoint c = loaded.checkpoint().get();
    settingsText().forEach((name, now) -> {
      String saved = c.settings().get(name);
      if (!FREE_ON_RESUME.contains(name) && saved != null && !saved.equals(now)) {
        throw FileErrors.checkpointMismatch(loaded.path(), Errors.flag(name), saved, now);
      }
    });
    if (c.totalSteps() != totalSteps) {
      throw FileErrors.checkpointMismatch(loaded.path(), "training data (total steps)", c.totalSteps(), totalSteps);
    }
    if (c.state().length != fresh.state().length || c.optimizerState().length != fresh.optimizerState().length) {
      throw FileErrors.checkpointMismatch(loaded.path(), "model size (floats)", c.state().length, fresh.state().length);
    }
    LOG.warn("Resuming from {} at step {} of {} (stage {})", loaded.path(), c.step(), totalSteps, c.stagesDone() + 1);
    return c;
  }

  private Map<String, String> settingsText() {
    Map<String, String> text = new LinkedHashMap<>();
    config.asMap().forEach((name, value) -> text.put(name, String.valueOf(value)));
    return text;
  }
}
