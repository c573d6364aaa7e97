package io.dssync.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Host memory read from a /proc and a cgroup mount laid out as Linux lays them out. */
class HostMemoryTest {
  private static final long GIB = 1L << 30;

  @Test
  void withoutAMemoryLimitItIsTheKernelsMemAvailable(@TempDir Path dir) throws IOException {
    Path proc = proc(dir, 20 * GIB, "4:memory:/jobs/a\n0::/\n");
    v1(dir.resolve("cg/memory/jobs/a"), Long.MAX_VALUE & ~4095L, 3 * GIB, 0);
    assertEquals(OptionalLong.of(20 * GIB), HostMemory.available(proc, dir.resolve("cg")));
  }

  @Test
  void aCgroupV1LimitCapsItLessTheUsageThatIsNotReclaimableFileCache(@TempDir Path dir) throws IOException {
    Path proc = proc(dir, 20 * GIB, "9:name=systemd:/\n4:memory:/jobs/a\n0::/\n");
    v1(dir.resolve("cg/memory/jobs/a"), 8 * GIB, 5 * GIB, 2 * GIB);
    assertEquals(OptionalLong.of(5 * GIB), HostMemory.available(proc, dir.resolve("cg")));
  }

  @Test
  void aTighterLimitOnAnAncestorCgroupCounts(@TempDir Path dir) throws IOException {
    Path proc = proc(dir, 20 * GIB, "4:memory:/jobs/a\n");
    v1(dir.resolve("cg/memory/jobs/a"), 8 * GIB, 1 * GIB, 0);
    v1(dir.resolve("cg/memory/jobs"), 4 * GIB, 3 * GIB, 0);
    assertEquals(OptionalLong.of(1 * GIB), HostMemory.available(proc, dir.resolve("cg")));
  }

  @Test
  void aCgroupV2LimitCapsIt(@TempDir Path dir) throws IOException {
    Path proc = proc(dir, 20 * GIB, "0::/kubepods/pod1\n");
    Files.createDirectories(dir.resolve("cg"));
    Files.writeString(dir.resolve("cg/cgroup.controllers"), "cpu memory pids\n");
    v2(dir.resolve("cg/kubepods/pod1"), Long.toString(6 * GIB), 4 * GIB, GIB);
    v2(dir.resolve("cg/kubepods"), "max", 9 * GIB, 0);
    assertEquals(OptionalLong.of(3 * GIB), HostMemory.available(proc, dir.resolve("cg")));
  }

  @Test
  void aHybridMountReadsV2UnderUnified(@TempDir Path dir) throws IOException {
    Path proc = proc(dir, 20 * GIB, "1:cpu:/\n0::/user.slice\n");
    v2(dir.resolve("cg/unified/user.slice"), Long.toString(2 * GIB), GIB, 0);
    assertEquals(OptionalLong.of(GIB), HostMemory.available(proc, dir.resolve("cg")));
  }

  @Test
  void insideAContainerTheHostsCgroupPathFallsBackToTheMountedOne(@TempDir Path dir) throws IOException {
    Path proc = proc(dir, 20 * GIB, "4:memory:/docker/abc123\n");
    v1(dir.resolve("cg/memory"), 3 * GIB, 2 * GIB, 0);
    assertEquals(OptionalLong.of(GIB), HostMemory.available(proc, dir.resolve("cg")));
  }

  @Test
  void withoutMeminfoNothingIsKnown(@TempDir Path dir) {
    assertEquals(OptionalLong.empty(), HostMemory.available(dir.resolve("proc"), dir.resolve("cg")));
  }

  @Test
  void onThisLinuxHostItIsKnownAndAtMostTheTotal() throws IOException {
    assumeTrue(Files.isReadable(Path.of("/proc/meminfo")), "not Linux");
    OptionalLong available = HostMemory.available();
    long total = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
        .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024).findFirst().orElseThrow();
    assertTrue(available.isPresent());
    assertTrue(available.getAsLong() > 0 && available.getAsLong() <= total, available + " of " + total);
  }

  private static Path proc(Path dir, long memAvailable, String selfCgroup) throws IOException {
    Path proc = dir.resolve("proc");
    Files.createDirectories(proc.resolve("self"));
    Files.writeString(proc.resolve("meminfo"), "MemTotal:       24576000 kB\nMemFree:          100000 kB\n"
        + "MemAvailable:   " + memAvailable / 1024 + " kB\nBuffers:           1000 kB\n");
    Files.writeString(proc.resolve("self/cgroup"), selfCgroup);
    return proc;
  }

  private static void v1(Path dir, long limit, long usage, long inactiveFile) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("memory.limit_in_bytes"), limit + "\n");
    Files.writeString(dir.resolve("memory.usage_in_bytes"), usage + "\n");
    Files.writeString(dir.resolve("memory.stat"), "cache 0\ninactive_file 7\ntotal_inactive_file " + inactiveFile
        + "\n");
  }

  private static void v2(Path dir, String max, long current, long inactiveFile) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("memory.max"), max + "\n");
    Files.writeString(dir.resolve("memory.current"), current + "\n");
    Files.writeString(dir.resolve("memory.stat"), "anon 0\ninactive_file " + inactiveFile + "\n");
  }
}
