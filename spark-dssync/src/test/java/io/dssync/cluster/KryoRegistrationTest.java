package io.dssync.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.data.LabeledArrays;
import io.dssync.train.ConsensusPart;
import io.dssync.train.ConsensusState;
import io.dssync.train.DsSyncKryoRegistrator;
import io.dssync.train.WorkerResult;
import java.nio.ByteBuffer;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import scala.reflect.ClassTag$;

/**
 * Kryo with {@code spark.kryo.registrationRequired=true}: a class we forgot to register fails the
 * first time Spark serializes it. Here: our records survive a strict round trip and strictness is
 * real. That nothing is missing across executor JVMs is proven by every dssync-submit training in
 * this package (AuthenticatedStandaloneSubmitTest, NetnsTestbedTest), whose properties require
 * registration: shuffled shard pieces, the broadcast stage start and the task results all pass.
 */
class KryoRegistrationTest {
  @Test
  void registeredRecordsRoundTripWithTheirValues() {
    SerializerInstance kryo = strictKryo(true);
    LabeledArrays shard = new LabeledArrays(new float[] {0.5f, 1.5f, 2.5f, 3.5f}, new int[] {1, 0}, 2, 2);
    LabeledArrays back = roundTrip(kryo, shard, LabeledArrays.class);
    assertArrayEquals(shard.features(), back.features());
    assertArrayEquals(shard.labels(), back.labels());
    assertEquals(2, back.featureSize());
    ConsensusState start = new ConsensusState(new float[] {1f, -2f}, new float[] {0.25f}, 7);
    ConsensusState startBack = roundTrip(kryo, start, ConsensusState.class);
    assertArrayEquals(start.state(), startBack.state());
    assertArrayEquals(start.optimizerState(), startBack.optimizerState());
    assertEquals(7, startBack.optimizerSteps());
  }

  @Test
  void taskResultArraysWithNullFieldsRoundTrip() {
    // collect() ships a partition's WorkerResults as an array; fields may be null (links when no probe ran).
    WorkerResult[] results = {
        new WorkerResult(0, "exec-1", new float[] {0.5f}, new float[] {1f}, new float[] {2f}, new float[] {3f},
            new float[] {4f}, new long[] {99}, 250f, 0.125, new ConsensusPart(2, new float[] {9f}, 1, 4, 3)),
        new WorkerResult(1, "exec-2", new float[0], new float[0], new float[0], new float[0], new float[0],
            new long[0], 0f, 0, null, null, true)};
    WorkerResult[] back = roundTrip(strictKryo(true), results, WorkerResult[].class);
    assertEquals(2, back.length);
    assertEquals("exec-1", back[0].executorId());
    assertArrayEquals(new long[] {99}, back[0].bytesSent());
    assertEquals(250f, back[0].stageEndMs());
    assertArrayEquals(new float[] {9f}, back[0].consensus().values());
    assertEquals(2, back[0].consensus().offset());
    assertEquals(3, back[0].consensus().optimizerSteps());
    assertEquals(null, back[1].consensus());
    assertEquals(false, back[0].fetchedStart());
    assertEquals(true, back[1].fetchedStart());
  }

  @Test
  void schemasWithVectorColumnsRoundTrip() {
    // What Parquet's schema job returns for a table with an ML vector column, on any non-local master.
    StructType schema = new StructType()
        .add("pixels", new org.apache.spark.ml.linalg.VectorUDT())
        .add("weights", new org.apache.spark.ml.linalg.MatrixUDT())
        .add("label", DataTypes.DoubleType);
    StructType[] back = roundTrip(strictKryo(true), new StructType[] {schema}, StructType[].class);
    assertEquals(schema, back[0]);
  }

  @Test
  void withoutTheRegistratorStrictKryoRefusesOurClasses() {
    SerializerInstance kryo = strictKryo(false);
    ConsensusState start = new ConsensusState(new float[] {1f}, new float[0], 0);
    Exception e = assertThrows(Exception.class, () -> roundTrip(kryo, start, ConsensusState.class));
    assertTrue(String.valueOf(e.getMessage()).contains("not registered"), e.toString());
  }

  private static SerializerInstance strictKryo(boolean withRegistrator) {
    SparkConf conf = new SparkConf(false).set("spark.kryo.registrationRequired", "true");
    if (withRegistrator) {
      conf.set("spark.kryo.registrator", DsSyncKryoRegistrator.class.getName());
    }
    return new KryoSerializer(conf).newInstance();
  }

  private static <T> T roundTrip(SerializerInstance kryo, T value, Class<T> type) {
    ByteBuffer bytes = kryo.serialize(value, ClassTag$.MODULE$.apply(type));
    return kryo.deserialize(bytes, ClassTag$.MODULE$.apply(type));
  }
}
