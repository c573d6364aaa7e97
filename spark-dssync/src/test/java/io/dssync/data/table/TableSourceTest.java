package io.dssync.data.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dssync.errors.DsSyncException;
import io.dssync.errors.ErrorKind;
import io.dssync.train.TrainerConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table spec on its own: formats, columns, layouts and the bad-records policy, checked when built. */
class TableSourceTest {
  @Test
  void aFormatIsReadInAnyCaseAndATypoGetsTheClosestNameSuggested() {
    assertEquals(TableFormat.PARQUET, TableFormat.of(" Parquet "));
    assertEquals(TableFormat.LIBSVM, TableSource.of("t", "libsvm", "features").format());
    DsSyncException e = assertThrows(DsSyncException.class, () -> TableSource.of("t", "parket", "x"));
    assertEquals("Unknown table format 'parket' (did you mean parquet?). Choose one of [parquet, csv, json, orc,"
        + " libsvm].", e.getMessage());
    assertEquals(ErrorKind.CONFIG, e.kind());
  }

  @Test
  void theLabelDefaultsToLabelAndCopiesChangeOnlyWhatTheyName() {
    TableSource source = TableSource.of("data/train", "csv", "a", "b");
    assertEquals("label", source.labelColumn());
    assertEquals(List.of("a", "b"), source.featureColumns());
    TableSource changed = source.withLabel("y").withLayout(new ImageLayout(1, 1, 2)).atPath("data/test");
    assertEquals(new TableSource("data/test", TableFormat.CSV,
        new TableColumns(List.of("a", "b"), "y", new ImageLayout(1, 1, 2))), changed);
    assertEquals("label", source.labelColumn(), "the original is unchanged");
  }

  @Test
  void columnsThatCannotMakeAnExampleAreRefusedWhenTheSpecIsBuilt() {
    assertEquals("Invalid featureColumns = []: at least one feature column is needed. Name the column that holds"
        + " the features, or the numeric columns to assemble.",
        assertThrows(DsSyncException.class, () -> TableColumns.of()).getMessage());
    assertEquals("Invalid labelColumn = x: the label column is also a feature column. Leave the label out of the"
        + " feature columns.", assertThrows(DsSyncException.class, () -> TableColumns.of("x").withLabel("x"))
        .getMessage());
    assertEquals("Invalid featureColumns = [a, a]: a feature column is named twice. Name each feature column once.",
        assertThrows(DsSyncException.class, () -> TableColumns.of("a", "a")).getMessage());
    assertEquals("Invalid path = : a table needs a path. Give the file or folder of the table.",
        assertThrows(DsSyncException.class, () -> TableSource.of("", "csv", "a")).getMessage());
  }

  @Test
  void aLayoutHasAtLeastOneOfEach() {
    assertEquals(784, new ImageLayout(1, 28, 28).size());
    assertEquals("Invalid imageLayout = 0x28x28: channels, height and width are at least 1 and hold at most"
        + " 2147483647 values. Give the layout of one example, e.g. 1x28x28 for a grey 28 by 28 image.",
        assertThrows(DsSyncException.class, () -> new ImageLayout(0, 28, 28)).getMessage());
  }

  @Test
  void theBadRecordsPolicyHasTheValuesOfTheTrainersSetting() {
    for (BadRecords b : BadRecords.values()) {
      String name = b.name().toLowerCase(java.util.Locale.ROOT);
      assertEquals(name, TrainerConfig.BAD_RECORDS.parse(name), "the trainer's --bad-records accepts " + name);
      assertEquals(b, BadRecords.of(name.toUpperCase(java.util.Locale.ROOT)));
    }
    assertEquals(BadRecords.FAIL, BadRecords.of(TrainerConfig.BAD_RECORDS.defaultValue()));
    assertEquals("Unknown --bad-records policy 'skp' (did you mean skip?). Choose one of [fail, skip].",
        assertThrows(DsSyncException.class, () -> BadRecords.of("skp")).getMessage());
  }
}
