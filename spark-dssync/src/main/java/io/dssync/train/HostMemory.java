package io.dssync.train;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Memory this host can still give the processes of this JVM's memory cgroup: the kernel's
 * {@code MemAvailable}, capped by the headroom (limit less usage, reclaimable file pages not counted)
 * of every cgroup from this process's up to the hierarchy's root, since in a container (YARN,
 * Kubernetes, Docker) {@code /proc/meminfo} shows the whole host. Linux only; elsewhere unknown.
 */
final class HostMemory {
  /** A limit this large means none (cgroup v1 writes 2^63 rounded down to a page). */
  private static final long NO_LIMIT = 1L << 60;

  private HostMemory() {}

  static OptionalLong available() {
    return available(Path.of("/proc"), Path.of("/sys/fs/cgroup"));
  }

  /** From a {@code /proc} and a cgroup mount root laid out as Linux lays them out (tests pass copies). */
  static OptionalLong available(Path proc, Path cgroupRoot) {
    OptionalLong memAvailable = field(proc.resolve("meminfo"), "MemAvailable:", 1024);
    if (memAvailable.isEmpty()) {
      return memAvailable;
    }
    long available = memAvailable.getAsLong();
    for (Path dir : cgroupDirs(proc.resolve("self/cgroup"), cgroupRoot)) {
      available = Math.min(available, headroom(dir).orElse(Long.MAX_VALUE));
    }
    return OptionalLong.of(available);
  }

  /** The memory cgroup of this process and its ancestors, v1 or v2 (a hybrid mount has v2 under "unified"). */
  private static List<Path> cgroupDirs(Path selfCgroup, Path root) {
    Optional<String> v1 = Optional.empty();
    Optional<String> v2 = Optional.empty();
    for (String line : lines(selfCgroup)) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3 && List.of(parts[1].split(",")).contains("memory")) {
        v1 = Optional.of(parts[2]);
      } else if (parts.length == 3 && parts[0].equals("0") && parts[1].isEmpty()) {
        v2 = Optional.of(parts[2]);
      }
    }
    if (v1.isPresent()) {
      return withAncestors(root.resolve("memory"), v1.get());
    }
    if (v2.isPresent()) {
      Path mount = Files.exists(root.resolve("cgroup.controllers")) ? root : root.resolve("unified");
      return withAncestors(mount, v2.get());
    }
    return List.of();
  }

  private static List<Path> withAncestors(Path mount, String cgroupPath) {
    List<Path> dirs = new java.util.ArrayList<>();
    Path dir = mount.resolve(cgroupPath.replaceFirst("^/+", ""));
    // Inside a container the path names the host's hierarchy while the mount shows only ours.
    while (!Files.isDirectory(dir) && dir.startsWith(mount) && !dir.equals(mount)) {
      dir = dir.getParent();
    }
    for (; dir != null && dir.startsWith(mount); dir = dir.getParent()) {
      dirs.add(dir);
    }
    return dirs;
  }

  /** Limit less usage of one cgroup, v2 ({@code memory.max}) or v1 ({@code memory.limit_in_bytes}). */
  private static OptionalLong headroom(Path dir) {
    boolean v2 = Files.exists(dir.resolve("memory.max"));
    OptionalLong limit = number(dir.resolve(v2 ? "memory.max" : "memory.limit_in_bytes"));
    OptionalLong usage = number(dir.resolve(v2 ? "memory.current" : "memory.usage_in_bytes"));
    if (limit.isEmpty() || usage.isEmpty() || limit.getAsLong() >= NO_LIMIT) {
      return OptionalLong.empty();
    }
    long reclaimable = field(dir.resolve("memory.stat"), v2 ? "inactive_file" : "total_inactive_file", 1).orElse(0);
    return OptionalLong.of(Math.max(0, limit.getAsLong() - Math.max(0, usage.getAsLong() - reclaimable)));
  }

  /** The number after {@code key} on its line of {@code file}, times {@code unit}. */
  private static OptionalLong field(Path file, String key, long unit) {
    for (String line : lines(file)) {
      String[] words = line.trim().split("\\s+");
      if (words.length >= 2 && words[0].equals(key)) {
        try {
          return OptionalLong.of(Long.parseLong(words[1]) * unit);
        } catch (NumberFormatException e) {
          return OptionalLong.empty();
        }
      }
    }
    return OptionalLong.empty();
  }

  /** A file holding one number ("max" or anything else unparsable: none). */
  private static OptionalLong number(Path file) {
    List<String> lines = lines(file);
    try {
      return lines.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(lines.get(0).trim()));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }
}
