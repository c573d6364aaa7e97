package io.dssync.cli;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.FileErrors;
import io.dssync.train.CheckpointStore;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code --resume DIR}, checked before training: a directory that does not exist is an error (a
 * mistyped path would otherwise train from scratch for hours), an existing one without a checkpoint
 * starts fresh and says so.
 */
final class ResumeDir {
  private ResumeDir() {}

  /** Whether {@code dir} is on this machine's file system, so it can be checked before Spark starts. */
  static boolean isLocal(String dir) {
    String scheme = URI.create(dir.replace(" ", "%20")).getScheme();
    return scheme == null || scheme.equals("file");
  }

  /** The line to print when training will start fresh in {@code dir}; fails when {@code dir} does not exist. */
  static Optional<String> check(String dir, Configuration hadoopConf) {
    if (dir.isEmpty()) {
      return Optional.empty();
    }
    if (!isDirectory(dir, hadoopConf)) {
      throw FileErrors.resumeDirMissing(dir);
    }
    if (new CheckpointStore(dir, hadoopConf).checkpointsNewestFirst().isEmpty()) {
      return Optional.of("[dssync] --resume " + dir + " holds no checkpoint yet: training starts fresh from step 0"
          + " and writes its checkpoints there.");
    }
    return Optional.empty();
  }

  /** A local path is looked at directly, so a typo fails before Hadoop's file systems start up. */
  private static boolean isDirectory(String dir, Configuration hadoopConf) {
    Path path = new Path(dir);
    if (isLocal(dir)) {
      return Files.isDirectory(java.nio.file.Path.of(path.toUri().getPath()));
    }
    try {
      return FileErrors.throughHadoop(dir, () -> {
        FileSystem fs = path.getFileSystem(hadoopConf);
        return fs.exists(path) && fs.getFileStatus(path).isDirectory();
      });
    } catch (DsSyncException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw FileErrors.checkpointIo("look for the directory of", dir, e);
    }
  }
}
