package io.dssync.train;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.FileErrors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints in a directory on any Hadoop file system: one sub-directory {@code ckpt-<step>} per
 * checkpoint holding {@code checkpoint.bin}. A checkpoint is written under {@code _tmp-...} and
 * renamed into place, so a reader never sees a half-written one under its final name; the
 * SHA-256 inside catches the rest (a torn disk, a hand-copied partial file).
 */
public final class CheckpointStore {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointStore.class);
  static final String FILE = "checkpoint.bin";
  private static final Pattern NAME = Pattern.compile("ckpt-(\\d+)");

  private final Path dir;
  private final FileSystem fs;

  public CheckpointStore(String directory, Configuration hadoopConf) {
    this.dir = new Path(directory);
    try {
      this.fs = FileErrors.throughHadoop(directory, () -> dir.getFileSystem(hadoopConf));
    } catch (DsSyncException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw FileErrors.checkpointIo("open the directory of", directory, e);
    }
  }

  /**
   * Creates the directory now, so that a path that cannot hold checkpoints (a file, a read-only
   * place) fails before training rather than at the first checkpoint, after a stage of work.
   */
  public CheckpointStore ensureDirectory() {
    try {
      if (!fs.mkdirs(dir) || !fs.getFileStatus(dir).isDirectory()) {
        throw new IOException(dir + " is not a directory");
      }
    } catch (IOException e) {
      throw FileErrors.checkpointIo("create the directory of", dir.toString(), e);
    }
    return this;
  }

  /** The directory of the checkpoint for {@code step}. */
  public Path pathOf(long step) {
    return new Path(dir, String.format("ckpt-%012d", step));
  }

  /** Writes {@code checkpoint} atomically (temporary name, then rename) and deletes all but the newest {@code keep}. */
  public void write(Checkpoint checkpoint, int keep) {
    Path target = pathOf(checkpoint.step());
    Path tmp = new Path(dir, "_tmp-" + target.getName() + "-" + UUID.randomUUID());
    try {
      if (fs.exists(target)) {
        // The same step of the same run is the same state (training replays deterministically).
        LOG.info("Checkpoint {} exists; not rewriting it", target);
      } else {
        fs.mkdirs(tmp);
        try (OutputStream out = fs.create(new Path(tmp, FILE), false)) {
          out.write(checkpoint.encode());
        }
        if (!fs.rename(tmp, target)) {
          throw new IOException("rename of " + tmp + " to " + target + " failed");
        }
      }
      prune(keep);
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw FileErrors.checkpointIo("write", target.toString(), e);
    }
  }

  /**
   * The newest checkpoint whose checksum verifies; corrupt or partial ones are skipped with a
   * warning (and listed in the result), never loaded.
   */
  public Loaded newestValid() {
    List<String> skipped = new ArrayList<>();
    for (Path p : checkpointsNewestFirst()) {
      try {
        return new Loaded(Optional.of(Checkpoint.decode(readAll(new Path(p, FILE)))), p.toString(), skipped);
      } catch (IOException | RuntimeException e) {
        LOG.warn("Skipping checkpoint {}: {}", p, e.getMessage());
        skipped.add(p + ": " + e.getMessage());
      }
    }
    return new Loaded(Optional.empty(), null, skipped);
  }

  /**
   * The checkpoint {@code path} names, for a tool that reads one ({@code dssync export-model}): a checkpoint
   * directory (its newest checkpoint that verifies; the ones skipped are listed), one {@code ckpt-<step>}
   * directory, or its {@code checkpoint.bin}. Never empty: errors name the path and what to pass instead.
   */
  public static Loaded open(String path, Configuration hadoopConf) {
    String fix = "Pass --checkpoint with the run's --checkpoint-dir (the newest checkpoint that verifies is"
        + " taken), one ckpt-<step> directory in it, or that directory's " + FILE + ".";
    CheckpointStore store = new CheckpointStore(path, hadoopConf);
    try {
      if (!store.fs.exists(store.dir)) {
        throw FileErrors.checkpointExport(path, "no such file or directory", fix);
      }
      Path file = store.fs.getFileStatus(store.dir).isFile() ? store.dir : new Path(store.dir, FILE);
      if (store.fs.exists(file)) {
        try {
          return new Loaded(Optional.of(Checkpoint.decode(store.readAll(file))), file.toString(), List.of());
        } catch (IOException | RuntimeException e) {
          throw FileErrors.checkpointExport(file.toString(), "it is not a checkpoint that verifies (" + e.getMessage()
              + ")", "Pass an older ckpt-<step> directory beside it, or the whole --checkpoint-dir to take the"
              + " newest checkpoint that verifies.");
        }
      }
    } catch (IOException e) {
      throw FileErrors.checkpointIo("read", path, e);
    }
    List<Path> all = store.checkpointsNewestFirst();
    if (all.isEmpty()) {
      throw FileErrors.checkpointExport(path, "the directory holds no checkpoint (no ckpt-<step> directories, no "
          + FILE + ")", "Pass the --checkpoint-dir of a run that finished at least one stage (it writes a"
          + " checkpoint every --checkpoint-every stages and at the end).");
    }
    Loaded loaded = store.newestValid();
    if (loaded.checkpoint().isEmpty()) {
      throw FileErrors.checkpointExport(path, "none of its " + all.size() + " checkpoints verifies ("
          + String.join("; ", loaded.skipped()) + ")", "They are corrupt or partial copies; export a checkpoint"
          + " from another copy of the directory.");
    }
    return loaded;
  }

  /** Checkpoint directories by step, newest first; temporary ones are ignored. */
  public List<Path> checkpointsNewestFirst() {
    List<Path> found = new ArrayList<>();
    try {
      if (!fs.exists(dir)) {
        return found;
      }
      for (FileStatus s : fs.listStatus(dir)) {
        if (s.isDirectory() && NAME.matcher(s.getPath().getName()).matches()) {
          found.add(s.getPath());
        }
      }
    } catch (IOException e) {
      throw FileErrors.checkpointIo("list", dir.toString(), e);
    }
    found.sort(Comparator.comparingLong(CheckpointStore::stepOf).reversed());
    return found;
  }

  private void prune(int keep) throws IOException {
    List<Path> all = checkpointsNewestFirst();
    for (int i = keep; i < all.size(); i++) {
      fs.delete(all.get(i), true);
    }
  }

  private byte[] readAll(Path file) throws IOException {
    try (InputStream in = fs.open(file)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  private void deleteQuietly(Path p) {
    try {
      fs.delete(p, true);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not delete temporary checkpoint {}: {}", p, e.toString());
    }
  }

  private static long stepOf(Path p) {
    Matcher m = NAME.matcher(p.getName());
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }

  /** The outcome of looking for a checkpoint: the one loaded (if any), its path, and what was skipped and why. */
  public record Loaded(Optional<Checkpoint> checkpoint, String path, List<String> skipped) {}
}
