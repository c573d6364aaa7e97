package io.dssync.data.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.dssync.train.DsSyncKryoRegistrator;
import java.nio.ByteBuffer;
import java.util.Collections;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import scala.reflect.ClassTag$;

/**
 * A table check's per-partition scans are task results: on any master whose executors are other
 * JVMs they pass through Spark's Kryo, which dssync-defaults.conf makes strict
 * ({@code spark.kryo.registrationRequired=true}).
 */
class TableScanKryoTest {
  @Test
  void partitionScansRoundTripThroughStrictKryo() {
    PartitionScan scan = PartitionScan.of(Collections.emptyIterator(), 3, null, Validation.NONE, BadRecords.FAIL,
        "t.parquet");
    scan.rows = 12;
    scan.bad = 2;
    scan.badRow = new BadRow("a null feature", "drop or fill it");
    scan.badWhere = "in table t.parquet, input partition 3 row 5";
    scan.first = new RowShape(1, 28, 28, 1);
    SerializerInstance kryo = new KryoSerializer(new SparkConf(false)
        .set("spark.kryo.registrationRequired", "true")
        .set("spark.kryo.registrator", DsSyncKryoRegistrator.class.getName())).newInstance();
    ByteBuffer bytes = kryo.serialize(new PartitionScan[] {scan}, ClassTag$.MODULE$.apply(PartitionScan[].class));
    PartitionScan back = kryo.<PartitionScan[]>deserialize(bytes, ClassTag$.MODULE$.apply(PartitionScan[].class))[0];
    assertEquals(3, back.partition);
    assertEquals(12, back.rows);
    assertEquals(2, back.bad);
    assertEquals("drop or fill it", back.badRow.fix);
    assertEquals(scan.badWhere, back.badWhere);
    assertEquals(scan.first, back.first);
    assertSame(null, back.mismatch);
  }
}
