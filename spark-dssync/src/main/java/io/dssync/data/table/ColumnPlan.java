package io.dssync.data.table;

import io.dssync.errors.DataErrors;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.VectorUDT;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * How the columns of one table make an example, decided from its schema alone, before any row is
 * read: the kind of the feature and label columns, or the error that names the column and the fix.
 */
final class ColumnPlan implements Serializable {
  /** How the feature columns hold one example's features. */
  enum Features {
    /** One ml Vector column, dense or sparse. */
    VECTOR,
    /** One array column of floating-point (or decimal) numbers. */
    REAL_ARRAY,
    /** One array column of integers: token ids. */
    ID_ARRAY,
    /** One or more numeric columns, one value each, assembled in order. */
    NUMBERS,
    /** One struct column of Spark's image source. */
    IMAGE
  }

  /** How the label column holds one example's label. */
  enum Label {
    NUMBER,
    ARRAY,
    VECTOR
  }

  /** Fields of Spark's image struct that decoding reads, in the order of {@link #imageFields}. */
  static final List<String> IMAGE_FIELDS = List.of("origin", "height", "width", "nChannels", "mode", "data");

  /** Fields every ml Vector struct keeps once a format drops its type (JSON omits a dense one's null size, indices). */
  private static final List<String> VECTOR_FIELDS = List.of("type", "values");

  private static final String FEATURES_ALLOWED = "features must be an ml Vector, an array of numbers, an image"
      + " of Spark's image source, or numbers in one or more numeric columns";
  private static final String LABEL_ALLOWED = "a label must be a number, an array of numbers or an ml Vector";

  final Features features;
  final Label label;
  final int featureColumns;
  /** Positions of {@link #IMAGE_FIELDS} in the image struct (null unless IMAGE). */
  final int[] imageFields;
  final List<String> featureNames;
  final String labelName;
  /** Name of the boolean validation indicator column, or null. */
  final String indicatorName;

  private ColumnPlan(Features features, Label label, int[] imageFields, TableColumns columns, String indicatorName) {
    this.features = features;
    this.label = label;
    this.featureColumns = columns.features().size();
    this.imageFields = imageFields;
    this.featureNames = columns.features();
    this.labelName = columns.label();
    this.indicatorName = indicatorName;
  }

  /**
   * The plan for {@code columns} (and a validation indicator column, or null) of a table with
   * {@code schema}; {@code table} names the table in errors.
   */
  static ColumnPlan of(StructType schema, TableColumns columns, String indicator, String table) {
    List<DataType> featureTypes = new ArrayList<>();
    for (String name : columns.features()) {
      featureTypes.add(typeOf(schema, table, "feature", name));
    }
    Features features = columns.features().size() == 1
        ? oneColumn(featureTypes.get(0), columns.features().get(0), table)
        : numbers(featureTypes, columns.features(), table);
    DataType labelType = typeOf(schema, table, "label", columns.label());
    Label label = labelKind(labelType, columns.label(), table);
    if (indicator != null) {
      DataType t = typeOf(schema, table, "validation indicator", indicator);
      if (!(t instanceof BooleanType)) {
        throw DataErrors.columnType(table, "validation indicator", indicator, t.simpleString(),
            "it must be boolean: true marks a validation row, false a training row",
            "Make one with a comparison, e.g. withColumn(\"isValidation\", col(\"" + indicator + "\").equalTo(0)),"
                + " and name that column.");
      }
    }
    int[] imageFields = features == Features.IMAGE ? imageFieldPositions((StructType) featureTypes.get(0)) : null;
    return new ColumnPlan(features, label, imageFields, columns, indicator);
  }

  /** The columns to select from the table: features, label, then the indicator if any. */
  List<String> selected() {
    List<String> names = new ArrayList<>(featureNames);
    names.add(labelName);
    if (indicatorName != null) {
      names.add(indicatorName);
    }
    return names;
  }

  /** Position of the label in a selected row. */
  int labelIndex() {
    return featureColumns;
  }

  /** Position of the indicator in a selected row. */
  int indicatorIndex() {
    return featureColumns + 1;
  }

  /** The feature columns as one name for messages. */
  String featureName() {
    return String.join(", ", featureNames);
  }

  private static DataType typeOf(StructType schema, String table, String role, String name) {
    for (StructField f : schema.fields()) {
      if (f.name().equals(name)) {
        return f.dataType();
      }
    }
    throw DataErrors.missingColumn(table, role, name, schema.fieldNames());
  }

  private static Features oneColumn(DataType type, String name, String table) {
    if (type instanceof VectorUDT) {
      return Features.VECTOR;
    }
    if (type instanceof NumericType) {
      return Features.NUMBERS;
    }
    if (type instanceof ArrayType array && array.elementType() instanceof NumericType element) {
      return isInteger(element) ? Features.ID_ARRAY : Features.REAL_ARRAY;
    }
    if (type instanceof StructType struct && isImage(struct)) {
      return Features.IMAGE;
    }
    throw wrongFeatureType(type, name, table);
  }

  private static Features numbers(List<DataType> types, List<String> names, String table) {
    for (int i = 0; i < types.size(); i++) {
      DataType type = types.get(i);
      if (type instanceof StringType || type instanceof BooleanType) {
        throw wrongFeatureType(type, names.get(i), table);
      }
      if (!(type instanceof NumericType)) {
        throw DataErrors.columnType(table, "feature", names.get(i), type.simpleString(),
            "with several feature columns each must hold one number",
            "Name one vector, array or image column alone, or assemble the columns into one vector first"
                + " (e.g. with VectorAssembler).");
      }
    }
    return Features.NUMBERS;
  }

  private static RuntimeException wrongFeatureType(DataType type, String name, String table) {
    String fix;
    if (type instanceof StringType || type instanceof ArrayType a && a.elementType() instanceof StringType) {
      fix = "Index or encode strings first: StringIndexer turns a string column into category indices (then"
          + " OneHotEncoder, if wanted), and VectorAssembler puts several columns into one vector.";
    } else if (type instanceof BooleanType) {
      fix = "Cast it to a number first, e.g. col(\"" + name + "\").cast(\"double\").";
    } else if (type instanceof StructType struct && List.of(struct.fieldNames()).containsAll(VECTOR_FIELDS)) {
      fix = "It looks like an ml Vector saved as JSON or ORC, which Spark reads back as a plain struct: save"
          + " vector_to_array(col(\"" + name + "\")) instead, or use parquet, which keeps vectors.";
    } else {
      fix = "Convert the column into one of those, e.g. with VectorAssembler.";
    }
    return DataErrors.columnType(table, "feature", name, type.simpleString(), FEATURES_ALLOWED, fix);
  }

  private static Label labelKind(DataType type, String name, String table) {
    if (type instanceof NumericType) {
      return Label.NUMBER;
    }
    if (type instanceof VectorUDT) {
      return Label.VECTOR;
    }
    if (type instanceof ArrayType array && array.elementType() instanceof NumericType) {
      return Label.ARRAY;
    }
    String fix = type instanceof StringType
        ? "Index string labels first, e.g. with StringIndexer (setInputCol(\"" + name + "\").setOutputCol(\"" + name
            + "Index\")), and name that column as the label."
        : type instanceof BooleanType
            ? "Cast it to a number first, e.g. col(\"" + name + "\").cast(\"double\")."
            : "Convert the column into a number, an array of numbers or a vector.";
    throw DataErrors.columnType(table, "label", name, type.simpleString(), LABEL_ALLOWED, fix);
  }

  private static boolean isInteger(NumericType t) {
    return t instanceof IntegerType || t instanceof LongType || t instanceof ShortType || t instanceof ByteType;
  }

  private static boolean isImage(StructType struct) {
    List<String> names = List.of(struct.fieldNames());
    return names.containsAll(IMAGE_FIELDS)
        && struct.apply("data").dataType() instanceof BinaryType;
  }

  private static int[] imageFieldPositions(StructType struct) {
    int[] at = new int[IMAGE_FIELDS.size()];
    for (int i = 0; i < at.length; i++) {
      at[i] = struct.fieldIndex(IMAGE_FIELDS.get(i));
    }
    return at;
  }
}
