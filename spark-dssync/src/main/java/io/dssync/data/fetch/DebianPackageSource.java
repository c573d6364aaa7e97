package io.dssync.data.fetch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Takes dataset files from a Debian package: from the installed package when there is one
 * ({@code dpkg -L} says where its files are, so no install path is assumed), otherwise by
 * {@code apt-get download} into a temporary folder and {@code dpkg-deb -x}, which needs no root
 * and no install. Only existing package lists are used: nothing here runs {@code apt-get update}.
 */
public final class DebianPackageSource implements FetchSource {
  private static final long QUERY_TIMEOUT_S = 30;
  private static final long DOWNLOAD_TIMEOUT_S = 600;

  private final String packageName;
  private final Path workParent;
  private Path workDir;
  private List<String> packageFiles;

  /** Temporary files go into a fresh folder under {@code workParent}, removed by {@link #close}. */
  public DebianPackageSource(String packageName, Path workParent) {
    this.packageName = packageName;
    this.workParent = workParent;
  }

  @Override
  public String describe(String fileName) {
    return "the Debian package " + packageName;
  }

  @Override
  public void fetch(String fileName, Path target) throws IOException {
    for (String name : FetchSource.packagedNames(fileName)) {
      for (String file : packageFiles()) {
        if (file.endsWith("/" + name) && Files.isRegularFile(Path.of(file))) {
          Files.copy(Path.of(file), target, StandardCopyOption.REPLACE_EXISTING);
          return;
        }
      }
    }
    throw new IOException("the Debian package " + packageName + " has no file " + fileName);
  }

  /** The package's files, from the installed package or else from a downloaded one (once). */
  private List<String> packageFiles() throws IOException {
    if (packageFiles == null) {
      List<String> installed = installedFiles();
      packageFiles = installed.isEmpty() ? downloadedFiles() : installed;
    }
    return packageFiles;
  }

  private List<String> installedFiles() {
    try {
      Path log = workDir().resolve("dpkg-L.txt");
      if (ProcessRunner.run(List.of("dpkg", "-L", packageName), workDir(), log,
          QUERY_TIMEOUT_S) != 0) {
        return List.of(); // not installed
      }
      return Files.readAllLines(log);
    } catch (IOException e) {
      return List.of(); // no dpkg on this machine: not a Debian system
    }
  }

  private List<String> downloadedFiles() throws IOException {
    Path dir = workDir();
    Path log = dir.resolve("apt-get-download.txt");
    int code;
    try {
      code = ProcessRunner.run(List.of("apt-get", "download", packageName), dir, log,
          DOWNLOAD_TIMEOUT_S);
    } catch (IOException e) {
      throw new IOException("the package " + packageName + " is not installed and apt-get could"
          + " not run (" + e.getMessage() + ")", e);
    }
    Path deb = TempFolders.findFirst(dir, "*.deb");
    if (code != 0 || deb == null) {
      throw new IOException("the package " + packageName + " is not installed and 'apt-get"
          + " download " + packageName + "' failed (exit " + code + ": " + ProcessRunner.tail(log)
          + "); if the package is unknown, the package lists may be missing: run apt-get update"
          + " first");
    }
    Path root = dir.resolve("root");
    if (ProcessRunner.run(List.of("dpkg-deb", "-x", deb.toString(), root.toString()), dir,
        dir.resolve("dpkg-deb.txt"), DOWNLOAD_TIMEOUT_S) != 0) {
      throw new IOException("dpkg-deb -x " + deb.getFileName() + " failed: "
          + ProcessRunner.tail(dir.resolve("dpkg-deb.txt")));
    }
    List<String> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isRegularFile).forEach(p -> files.add(p.toString()));
    }
    return files;
  }

  private Path workDir() throws IOException {
    if (workDir == null) {
      Files.createDirectories(workParent);
      workDir = Files.createTempDirectory(workParent, ".debian-");
    }
    return workDir;
  }

  @Override
  public void close() {
    TempFolders.deleteTree(workDir);
    workDir = null;
    packageFiles = null;
  }
}
