package io.dssync.testing;

import io.dssync.data.LabeledArrays;
import io.dssync.data.Labels;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The DSDT tables the python/examples scripts read and write (see python/examples/dsdata.py): a 24-byte
 * little-endian header ("DSDT", version 1, rows, features, label width), then the features, then the labels.
 */
public final class Dsdt {
  private Dsdt() {}

  public static Path write(Path file, LabeledArrays data) throws IOException {
    int rows = data.size();
    ByteBuffer b = ByteBuffer.allocate(24 + 4 * (data.features().length + data.labels().length))
        .order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {'D', 'S', 'D', 'T'}).putInt(1).putLong(rows).putInt(data.featureSize()).putInt(data.labelWidth());
    b.asFloatBuffer().put(data.features()).put(data.labels());
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      out.write(b.rewind());
    }
    return file;
  }

  /** A table's rows with real-valued labels (or none: label width 0 reads as predictions in the features). */
  public static float[][] read(Path file) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    b.position(8);
    int rows = (int) b.getLong();
    int features = b.getInt();
    int width = b.getInt();
    float[] f = new float[rows * features];
    float[] l = new float[rows * width];
    b.asFloatBuffer().get(f).get(l);
    return new float[][] {f, l, {rows, features, width}};
  }

  /** The table as examples with {@code labels} (real values of the file's width, or classes). */
  public static LabeledArrays examples(Path file, Labels labels) throws IOException {
    float[][] t = read(file);
    return new LabeledArrays(t[0], t[1], (int) t[2][1], labels);
  }
}
