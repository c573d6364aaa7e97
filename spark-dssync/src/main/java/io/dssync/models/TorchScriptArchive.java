package io.dssync.models;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * The zip archive that {@code torch.jit.save} writes: entries under one folder ({@code <archive>/data.pkl},
 * {@code <archive>/code/...}) and the extra files under {@code <archive>/extra/}. Read through {@link ZipFile}:
 * libtorch stores entries with data descriptors, which {@code ZipInputStream} refuses.
 */
final class TorchScriptArchive {
  private TorchScriptArchive() {}

  /** Extra file {@code name}'s text, or null when the archive has none; not a zip archive: ZipException. */
  static String extra(byte[] archive, String name) throws IOException {
    Path copy = Files.createTempFile("dssync-model", ".pt");
    try {
      Files.write(copy, archive);
      try (ZipFile zip = new ZipFile(copy.toFile())) {
        for (ZipEntry e : Collections.list(zip.entries())) {
          if (e.getName().endsWith("/extra/" + name)) {
            try (InputStream in = zip.getInputStream(e)) {
              return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
          }
        }
        return null;
      }
    } finally {
      Files.deleteIfExists(copy);
    }
  }

  /**
   * The archive with extra file {@code name} holding {@code text} (replacing one of that name): libtorch's
   * writer keeps no extra files, so a trained copy gets the export helper's back this way.
   */
  static byte[] withExtra(byte[] archive, String name, String text) throws IOException {
    return withEntry(archive, "extra/" + name, text.getBytes(StandardCharsets.UTF_8));
  }

  /** The archive with entry {@code <archive>/relativeName} holding {@code content}, added or replaced. */
  static byte[] withEntry(byte[] archive, String relativeName, byte[] content) throws IOException {
    Path copy = Files.createTempFile("dssync-model", ".pt");
    try {
      Files.write(copy, archive);
      ByteArrayOutputStream out = new ByteArrayOutputStream(archive.length + content.length + 512);
      try (ZipFile zip = new ZipFile(copy.toFile()); ZipOutputStream to = new ZipOutputStream(out)) {
        String folder = null;
        for (ZipEntry e : Collections.list(zip.entries())) {
          if (folder == null) {
            folder = e.getName().substring(0, e.getName().indexOf('/') + 1);
          }
          if (!e.getName().equals(folder + relativeName)) {
            try (InputStream in = zip.getInputStream(e)) {
              stored(to, e.getName(), in.readAllBytes());
            }
          }
        }
        stored(to, folder + relativeName, content);
      }
      return out.toByteArray();
    } finally {
      Files.deleteIfExists(copy);
    }
  }

  /** Uncompressed, as torch.jit.save writes: tensors are read in place. */
  private static void stored(ZipOutputStream to, String name, byte[] data) throws IOException {
    ZipEntry entry = new ZipEntry(name);
    entry.setMethod(ZipEntry.STORED);
    entry.setSize(data.length);
    entry.setCompressedSize(data.length);
    CRC32 crc = new CRC32();
    crc.update(data);
    entry.setCrc(crc.getValue());
    to.putNextEntry(entry);
    to.write(data);
    to.closeEntry();
  }
}
