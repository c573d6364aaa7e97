package io.dssync.docs;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's root, found from the test's working folder (the module's, under Maven). */
final class RepoFiles {
  private RepoFiles() {}

  static Path root() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !(Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs"))
        && Files.isRegularFile(p.resolve("pom.xml")))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("No repository root (README.md, docs/, pom.xml) above "
          + Path.of("").toAbsolutePath());
    }
    return p;
  }
}
