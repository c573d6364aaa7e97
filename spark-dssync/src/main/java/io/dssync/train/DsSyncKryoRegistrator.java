package io.dssync.train;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.dssync.data.LabeledArrays;
import io.dssync.data.Labels;
import io.dssync.data.frame.ShardedData;
import io.dssync.data.table.TableReader;
import io.dssync.models.BuiltInModel;
import io.dssync.models.FactoryModel;
import io.dssync.models.LossKind;
import io.dssync.models.ModelSpec;
import io.dssync.models.ScriptBytes;
import io.dssync.models.ScriptMetadata;
import io.dssync.models.TorchScriptModel;
import io.dssync.replica.Evaluation;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.serializer.KryoRegistrator;

/**
 * Registers every class of ours that Spark's serializer carries between JVMs (shuffled shard
 * pieces, cached shards, the broadcast stage start, task results), so a session with {@code
 * spark.kryo.registrationRequired=true} trains. Use with {@code
 * spark.kryo.registrator=io.dssync.train.DsSyncKryoRegistrator}.
 */
public final class DsSyncKryoRegistrator implements KryoRegistrator {
  /** Our records that Spark serializes: shuffle and cache (shards), broadcast and results (stages). */
  static final List<Class<? extends Record>> RECORDS = Stream.concat(
      Stream.of(LabeledArrays.class, Labels.class, ConsensusState.class, ConsensusPart.class, WorkerResult.class,
          LinkSample.class, TrainedModel.class, ModelSpec.class, BuiltInModel.class, FactoryModel.class,
          TorchScriptModel.class, ScriptMetadata.class, ScriptBytes.Inline.class, Evaluation.class),
      ShardedData.SERIALIZED_RECORDS.stream()).toList();

  /** Array types inside those records and in the count and size jobs of the trainer. */
  static final List<Class<?>> ARRAYS = List.of(
      float[].class, int[].class, long[].class, double[].class, byte[].class, String[].class, Integer[].class,
      Long[].class);

  /**
   * Spark's own classes that Spark leaves unregistered but ships in task results: reading a Parquet
   * table with an ML vector column runs a schema job whose results are StructTypes holding the
   * vector's user-defined type (likewise for matrices).
   */
  static final List<Class<?>> SPARK_TYPES = List.of(
      org.apache.spark.ml.linalg.VectorUDT.class, org.apache.spark.ml.linalg.MatrixUDT.class);

  @Override
  public void registerClasses(Kryo kryo) {
    ARRAYS.forEach(kryo::register);
    SPARK_TYPES.forEach(kryo::register);
    for (Class<?> type : TableReader.TASK_RESULT_CLASSES) {
      kryo.register(type, new JavaSerializer());
      kryo.register(Array.newInstance(type, 0).getClass());
    }
    kryo.register(LossKind.class);
    for (Class<? extends Record> type : RECORDS) {
      kryo.register(type, recordSerializer(type));
      // collect() ships a partition's results as an array of the element type.
      kryo.register(Array.newInstance(type, 0).getClass());
    }
  }

  private static <T extends Record> RecordSerializer<T> recordSerializer(Class<T> type) {
    return new RecordSerializer<>(type);
  }

  /**
   * Writes a record component by component and rebuilds it through its canonical constructor.
   * Spark's Kryo 4 predates records: its field serializer sets final fields through Unsafe or
   * reflection, which the JDK refuses for record fields.
   */
  static final class RecordSerializer<T extends Record> extends Serializer<T> {
    private final Method[] accessors;
    private final Constructor<T> constructor;

    RecordSerializer(Class<T> type) {
      RecordComponent[] components = type.getRecordComponents();
      accessors = Arrays.stream(components).map(RecordComponent::getAccessor).toArray(Method[]::new);
      Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
      try {
        constructor = type.getDeclaredConstructor(types);
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException("record " + type.getName() + " has no canonical constructor", e);
      }
      // Package-private records (ShardedData's pieces) need this; it does not open any module.
      constructor.setAccessible(true);
      for (Method accessor : accessors) {
        accessor.setAccessible(true);
      }
    }

    @Override
    public void write(Kryo kryo, Output output, T record) {
      for (Method accessor : accessors) {
        try {
          kryo.writeClassAndObject(output, accessor.invoke(record));
        } catch (IllegalAccessException | InvocationTargetException e) {
          throw new IllegalStateException("cannot read " + accessor + " for serialization", e);
        }
      }
    }

    @Override
    public T read(Kryo kryo, Input input, Class<T> type) {
      Object[] values = new Object[accessors.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = kryo.readClassAndObject(input);
      }
      try {
        return constructor.newInstance(values);
      } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("cannot rebuild " + type.getName() + " after deserialization", e);
      }
    }
  }
}
