/**
 * Any user table in, as the {@code (features, label)} DataFrame the trainer consumes.
 *
 * <p>A {@link io.dssync.data.table.TableSource} names a path on any Hadoop file system, a
 * {@link io.dssync.data.table.TableFormat} (parquet, csv with a header and inferred types, json,
 * orc, libsvm: each read by Spark's own reader) and the {@link io.dssync.data.table.TableColumns}
 * of one example. {@link io.dssync.data.table.TableReader#read} checks it and gives a
 * {@link io.dssync.data.table.LoadedTable}: a frame of exactly {@code features} (dense ml Vector)
 * and {@code label}, plus the {@link io.dssync.data.table.TableShape} of one example.
 *
 * <p>Features, from:
 * <ul>
 *   <li>one ml Vector column, dense or sparse (made dense);
 *   <li>one array of floats, doubles or decimals;
 *   <li>one array of integers (int, long, short, byte): token ids, kept as floats of exact
 *       integers in 0..2^24, and the shape says {@code idsInput};
 *   <li>one or more numeric columns, assembled in the order named, as VectorAssembler does;
 *   <li>one struct column of Spark's image source ({@code spark.read().format("image")}, also
 *       after a round trip through parquet): decoded to {@code channels x height x width} floats
 *       in [0, 1] (byte / 255), channel-major, colour in RGB order (RGBA with alpha): the image
 *       source's BGR bytes are reordered to the order torchvision and PIL give. Images carry no
 *       label: add one to the DataFrame (e.g. from the file's folder in {@code image.origin}) and
 *       pass it to {@link io.dssync.data.table.TableReader#fromFrame}, or save it as parquet.
 * </ul>
 * Flat features have the shape {@code 1 x 1 x d} unless an {@link io.dssync.data.table.ImageLayout}
 * of d values says otherwise. Labels: a number gives a double {@code label}; an array of numbers
 * or an ml Vector gives a dense vector {@code label} (multi-output regression, multi-label), of
 * {@code labelWidth} values.
 *
 * <p>Checks, each a {@link io.dssync.errors.DsSyncException} before any training stage: a path
 * that matches nothing; a column that does not exist (the columns are listed, a close name
 * suggested); feature or label columns of a type that does not fit (strings: index or encode
 * them); and in one Spark job over the rows, rows whose arrays, vectors, images or labels differ
 * in size from the first row (always an error: which size is right is the user's call), null,
 * NaN or infinite features and labels (bad records: {@link io.dssync.data.table.BadRecords#FAIL}
 * names the first, before any size difference; {@code SKIP} drops and counts them, as
 * {@code --bad-records} does), and a table with no rows left. {@link io.dssync.data.table.TableSplits}
 * adds a validation table: a second source, a seeded fraction, or a boolean indicator column.
 */
package io.dssync.data.table;
