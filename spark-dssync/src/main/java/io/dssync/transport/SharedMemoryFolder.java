package io.dssync.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's folder of part buffers in shared memory ({@code /dev/shm}), for readers in other JVMs
 * of the same host. The sender encodes a part once into a memory-mapped file and tells the reader
 * where it is; the reader lands the floats straight from its own mapping of the same pages. No byte
 * crosses a socket, so the two kernel copies of a TCP transfer and Netty's handling of every piece
 * are gone. Spark reads host-local shuffle files in the same spirit
 * ({@code spark.shuffle.readHostLocalDisk}).
 *
 * <p>The folder and its files are the owner's only (0700 / 0600). A file {@code hello} holds the
 * task's inbox id: a peer that can read it back shares this host's {@code /dev/shm} with us. The
 * folder is removed at {@link #close}; folders of JVMs that died before closing theirs are removed
 * by the next folder created on the host. Folder names carry the PID namespace and the process id
 * ({@code dssync-<namespace>-<pid>-<inbox id>}), so a container that shares {@code /dev/shm} but not
 * the process table never takes a live peer's folder for an abandoned one. Buffers are written with zeros when created,
 * so a full {@code /dev/shm} fails there with an IOException rather than later with a fault.
 */
final class SharedMemoryFolder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedMemoryFolder.class);
  private static final Path ROOT = Path.of("/dev/shm");
  private static final String PREFIX = "dssync-";
  private static final String HELLO = "hello";
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FOLDER =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FILE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  /** A part buffer: a file of the folder and this JVM's mapping of it. */
  record MappedPart(String file, MappedByteBuffer buffer) {}

  private final Path folder;
  private final List<MappedPart> parts = new ArrayList<>();
  private boolean closed;

  private SharedMemoryFolder(Path folder) {
    this.folder = folder;
  }

  /** A new folder for the task with this inbox id, or empty when the host has no usable /dev/shm. */
  static Optional<SharedMemoryFolder> create(String inboxId) {
    if (!Files.isDirectory(ROOT) || !Files.isWritable(ROOT)) {
      return Optional.empty();
    }
    String namespace = pidNamespace();
    removeAbandoned(namespace);
    Path folder = ROOT.resolve(PREFIX + namespace + "-" + ProcessHandle.current().pid() + "-" + inboxId);
    try {
      Files.createDirectory(folder, OWNER_ONLY_FOLDER);
      Path hello = Files.createFile(folder.resolve(HELLO), OWNER_ONLY_FILE);
      Files.writeString(hello, inboxId);
      return Optional.of(new SharedMemoryFolder(folder));
    } catch (IOException | UnsupportedOperationException e) {
      LOG.warn("dssync: no shared-memory folder under {} ({}); same-host peers exchange over the network",
          ROOT, e.toString());
      deleteQuietly(folder);
      return Optional.empty();
    }
  }

  /** Whether the folder a peer announced is readable here and belongs to that peer's inbox. */
  static boolean reachable(String peerFolder, String peerInboxId) {
    try {
      Path hello = Path.of(peerFolder).resolve(HELLO);
      return peerFolder.startsWith(ROOT + "/" + PREFIX) && Files.isReadable(hello)
          && Files.readString(hello).equals(peerInboxId);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  String path() {
    return folder.toString();
  }

  /** A new buffer of {@code bytes} in a new file of the folder (the caller pools it). */
  synchronized MappedPart allocate(int bytes) throws IOException {
    if (closed) {
      throw new IOException("the shared-memory folder " + folder + " is closed");
    }
    Path file = folder.resolve("part-" + parts.size());
    try (FileChannel channel = FileChannel.open(Files.createFile(file, OWNER_ONLY_FILE),
        StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      // Small enough not to be a humongous object for G1 (half a region or more: 512 KiB under 1 MiB
      // regions), which is allocated in the old generation and may start a concurrent cycle.
      ByteBuffer zeros = ByteBuffer.allocate(Math.min(bytes, 64 << 10));
      for (long at = 0; at < bytes; ) {
        zeros.clear().limit((int) Math.min(zeros.capacity(), bytes - at));
        at += channel.write(zeros, at);
      }
      MappedPart part = new MappedPart(file.toString(), channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes));
      parts.add(part);
      return part;
    } catch (IOException e) {
      Files.deleteIfExists(file);
      throw e;
    }
  }

  /** Maps a peer's part file for reading (the mapping outlives the file's deletion). */
  static MappedByteBuffer mapForReading(String file) {
    try (FileChannel channel = FileChannel.open(Path.of(file), StandardOpenOption.READ)) {
      return channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot map the shared-memory part " + file, e);
    }
  }

  /** Releases this JVM's mapping now rather than at some later GC (the pages of a deleted file go with it). */
  static void unmap(MappedByteBuffer buffer) {
    Unmapper.unmap(buffer);
  }

  /** Deletes the folder and unmaps its buffers; the caller guarantees none is in use. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (MappedPart p : parts) {
      unmap(p.buffer());
    }
    parts.clear();
    deleteQuietly(folder);
  }

  /** The inode of this process's PID namespace ("0" when unknown: then nothing is ever removed). */
  private static String pidNamespace() {
    try {
      String link = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString(); // pid:[4026531836]
      return link.replaceAll("[^0-9]", "");
    } catch (IOException | RuntimeException e) {
      return "0";
    }
  }

  /**
   * Removes the folders of JVMs of this host and PID namespace that are gone (killed before they
   * could close theirs).
   */
  private static void removeAbandoned(String namespace) {
    if (namespace.isEmpty() || namespace.equals("0")) {
      return;
    }
    try (DirectoryStream<Path> folders = Files.newDirectoryStream(ROOT, PREFIX + namespace + "-*")) {
      for (Path f : folders) {
        String[] fields = f.getFileName().toString().split("-", 4);
        try {
          if (ProcessHandle.of(Long.parseLong(fields[2])).isEmpty()) {
            deleteQuietly(f);
          }
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
          // not one of ours
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("dssync: could not look for abandoned shared-memory folders: {}", e.toString());
    }
  }

  private static void deleteQuietly(Path folder) {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
      for (Path f : files) {
        Files.deleteIfExists(f);
      }
      Files.deleteIfExists(folder);
    } catch (IOException | RuntimeException e) {
      if (Files.exists(folder)) {
        LOG.warn("dssync: could not remove the shared-memory folder {}: {}", folder, e.toString());
      }
    }
  }

  /**
   * Unmaps through {@code sun.misc.Unsafe.invokeCleaner} (jdk.unsupported), the supported way before Java 19's arenas.
   */
  private static final class Unmapper {
    private static final sun.misc.Unsafe UNSAFE = unsafe();

    static void unmap(MappedByteBuffer buffer) {
      if (UNSAFE != null) {
        UNSAFE.invokeCleaner(buffer);
      }
    }

    private static sun.misc.Unsafe unsafe() {
      try {
        java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return (sun.misc.Unsafe) f.get(null);
      } catch (ReflectiveOperationException | RuntimeException e) {
        LOG.warn("dssync: cannot unmap shared-memory buffers early ({}); the GC will", e.toString());
        return null;
      }
    }
  }
}
