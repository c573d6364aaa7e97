package io.dssync.data.table;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.regexp_extract;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.errors.DsSyncException;
import io.dssync.testing.TestData;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A column of Spark's image source: real Fashion-MNIST images written as PNG files into
 * {@code <class>/<index>.png} folders (a temporary folder under target/), read with
 * {@code format("image")}, labelled from the folder name, and decoded back to the pixels / 255.
 */
@Order(LocalSpark.ORDER)
class ImageColumnTest {
  private static final int IMAGES = 30;
  /** Class index from the file's folder: .../7/12.png is class 7. */
  private static final String CLASS_FOLDER = "/(\\d+)/[^/]+$";
  /** The index in the file's name: .../7/12.png is image 12 (pairs decoded images with the originals). */
  private static final String FILE_INDEX = "/(\\d+)\\.png$";
  private static SparkSession spark;
  private static LabeledArrays fashion;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.session();
    fashion = TestData.fashionMnist().test().head(IMAGES);
  }

  @Test
  void greyPngsDecodeToTheirPixelsOverTwoFiftyFiveWithTheFolderAsLabel() throws IOException {
    for (int i = 0; i < IMAGES; i++) {
      writePng(grey(i), dir.resolve((int) fashion.labels()[i] + "/" + i + ".png"));
    }
    LoadedTable t = images(dir, CLASS_FOLDER, BadRecords.FAIL);
    assertEquals(new TableShape(1, 28, 28, 1, false), t.shape());
    assertEquals(IMAGES, t.rows());
    double[] expectedLabels = new double[IMAGES];
    for (int i = 0; i < IMAGES; i++) {
      expectedLabels[i] = fashion.labels()[i];
    }
    double[] labels = Frames.labels(t).stream().mapToDouble(l -> l[0]).sorted().toArray();
    assertArrayEquals(java.util.Arrays.stream(expectedLabels).sorted().toArray(), labels);
    // The image source reads files in no fixed order: label each by its file's index to pair them.
    LoadedTable byFile = images(dir, FILE_INDEX, BadRecords.FAIL);
    List<Row> rows = byFile.frame().collectAsList();
    assertEquals(IMAGES, rows.size());
    for (Row r : rows) {
      int i = (int) r.getDouble(1);
      assertArrayEquals(Frames.floats(Frames.row(fashion, i)), Frames.floats(((Vector) r.get(0)).toArray()),
          "image " + i);
    }
  }

  @Test
  void colourPngsComeOutChannelMajorInRgbOrder() throws IOException {
    // Three different channels made from one real image, so a swapped or interleaved channel shows.
    BufferedImage colour = new BufferedImage(28, 28, BufferedImage.TYPE_3BYTE_BGR);
    int[] pixels = bytes(0);
    for (int p = 0; p < 784; p++) {
      int r = pixels[p];
      int g = 255 - pixels[p];
      int b = pixels[p] / 2;
      colour.setRGB(p % 28, p / 28, (r << 16) | (g << 8) | b);
    }
    writePng(colour, dir.resolve("3/0.png"));
    LoadedTable t = images(dir, CLASS_FOLDER, BadRecords.FAIL);
    assertEquals(new TableShape(3, 28, 28, 1, false), t.shape());
    double[] decoded = Frames.features(t).get(0);
    for (int p = 0; p < 784; p++) {
      assertEquals(pixels[p] / 255.0, decoded[p], 1e-12, "red of pixel " + p);
      assertEquals((255 - pixels[p]) / 255.0, decoded[784 + p], 1e-12, "green of pixel " + p);
      assertEquals(pixels[p] / 2 / 255.0, decoded[2 * 784 + p], 1e-12, "blue of pixel " + p);
    }
  }

  @Test
  void anImageColumnSavedAsParquetReadsAsATableSource() throws IOException {
    for (int i = 0; i < 5; i++) {
      writePng(grey(i), dir.resolve("png/" + (int) fashion.labels()[i] + "/" + i + ".png"));
    }
    String parquet = dir.resolve("images.parquet").toString();
    labelled(dir.resolve("png"), FILE_INDEX).write().parquet(parquet);
    LoadedTable t = TableReader.read(spark, TableSource.of(parquet, "parquet", "image"));
    assertEquals(new TableShape(1, 28, 28, 1, false), t.shape());
    List<Row> rows = t.frame().collectAsList();
    assertEquals(5, rows.size());
    for (Row r : rows) {
      int i = (int) r.getDouble(1);
      assertArrayEquals(Frames.floats(Frames.row(fashion, i)), Frames.floats(((Vector) r.get(0)).toArray()),
          "image " + i);
    }
  }

  @Test
  void imagesOfAnotherSizeAreNamedByFile() throws IOException {
    writePng(grey(0), dir.resolve("1/0.png"));
    writePng(new BufferedImage(14, 14, BufferedImage.TYPE_BYTE_GRAY), dir.resolve("1/1.png"));
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> TableReader.fromFrame(labelled(dir, CLASS_FOLDER).coalesce(1), "mixed pngs",
            TableColumns.of("image"), BadRecords.SKIP));
    String size = "1x(14x14|28x28) \\(channels x height x width\\)";
    String file = "\\(image file:.*/1/[01].png\\)";
    assertTrue(e.getMessage().matches("Column 'image' of table mixed pngs holds images of different sizes: input"
        + " partition 0, row 1 " + file + " has " + size + ", but the first row \\(input partition 0, row 0 " + file
        + "\\) has " + size + "\\. Every example must have the same size: pad, crop or filter the rows before"
        + " training\\."), e.getMessage());
    assertTrue(!e.getMessage().matches(".* has (1x14x14|1x28x28) .* has \\1 .*"), "the two sizes differ");
  }

  @Test
  void aFileThatIsNoImageIsABadRecord() throws IOException {
    writePng(grey(0), dir.resolve("1/0.png"));
    Files.createDirectories(dir.resolve("2"));
    Files.writeString(dir.resolve("2/broken.png"), "not a png");
    DsSyncException e = assertThrows(DsSyncException.class,
        () -> images(dir, CLASS_FOLDER, BadRecords.FAIL));
    assertTrue(e.getMessage().matches("Bad record in table pngs, input partition \\d, row 0 \\(image file:.*/2/broken"
        + "\\.png\\): the image file:.*/2/broken\\.png was not decoded \\(height -1, width -1, nChannels -1, mode -1;"
        + " Spark marks a file it cannot decode with -1\\)\\. Remove or replace such files, or read the images with"
        + " option\\(\"dropInvalid\", true\\)"), e.getMessage());
    LoadedTable skipped = images(dir, CLASS_FOLDER, BadRecords.SKIP);
    assertEquals(1, skipped.rows());
    assertEquals(1, skipped.skipped());
    assertEquals(1, skipped.frame().count());
  }

  /** The PNGs under {@code root} as Spark's image source reads them, plus a label from the path by {@code regex}. */
  private static Dataset<Row> labelled(Path root, String regex) {
    return spark.read().format("image").load(root + "/*/*.png")
        .withColumn("label", regexp_extract(col("image.origin"), regex, 1).cast("int"));
  }

  /** The PNGs under {@code root}, labelled by {@code regex}, checked and normalized as table "pngs". */
  private static LoadedTable images(Path root, String regex, BadRecords badRecords) {
    return TableReader.fromFrame(labelled(root, regex), "pngs", TableColumns.of("image"), badRecords);
  }

  private static int[] bytes(int i) {
    int[] out = new int[784];
    for (int p = 0; p < 784; p++) {
      out[p] = Math.round(fashion.features()[i * 784 + p] * 255);
    }
    return out;
  }

  private static BufferedImage grey(int i) {
    BufferedImage image = new BufferedImage(28, 28, BufferedImage.TYPE_BYTE_GRAY);
    int[] pixels = bytes(i);
    for (int p = 0; p < 784; p++) {
      image.getRaster().setSample(p % 28, p / 28, 0, pixels[p]);
    }
    return image;
  }

  private static void writePng(BufferedImage image, Path file) throws IOException {
    Files.createDirectories(file.getParent());
    assertTrue(ImageIO.write(image, "png", file.toFile()), "ImageIO writes PNG");
  }
}
