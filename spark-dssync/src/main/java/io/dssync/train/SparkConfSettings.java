package io.dssync.train;

import io.dssync.config.ProcessSettings;
import io.dssync.errors.Errors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * The training settings given in Spark's configuration, as Spark's own are: {@code spark-submit --conf
 * spark.dssync.groupSize=4}, {@code spark-defaults.conf}, {@code -Dspark.dssync.groupSize=4} or, in a
 * notebook, {@code spark.conf.set("spark.dssync.groupSize", "4")}. A flag or an estimator param set
 * explicitly wins over them; they win over the defaults.
 */
public final class SparkConfSettings {
  public static final String PREFIX = "spark.dssync.";

  private SparkConfSettings() {}

  /**
   * The settings among {@code conf}'s entries, parsed and checked: a bad value fails naming its key, and a
   * {@code spark.dssync.*} key that is no setting fails naming the likely one.
   */
  public static Map<Setting<?>, Object> parse(Map<String, String> conf) {
    Map<String, Setting<?>> byKey = new LinkedHashMap<>();
    TrainerConfig.ALL.forEach(s -> byKey.put(s.sparkConfKey(), s));
    Map<Setting<?>, Object> values = new LinkedHashMap<>();
    new TreeMap<>(conf).forEach((key, text) -> {
      Setting<?> s = byKey.get(key);
      if (s != null) {
        values.put(s, s.parse(text, key));
      } else if (key.startsWith(PREFIX) && !ProcessSettings.checkSparkProperty(key, text)) {
        List<String> known = new ArrayList<>(byKey.keySet());
        known.addAll(ProcessSettings.sparkKeys());
        throw Errors.unknownSparkConfKey(key, known.toArray());
      }
    });
    return values;
  }

  /** The {@code spark.dssync.*} entries of a session's runtime configuration (its SparkConf included). */
  public static Map<String, String> of(SparkSession spark) {
    Map<String, String> entries = new TreeMap<>();
    scala.collection.Iterator<Tuple2<String, String>> all = spark.conf().getAll().iterator();
    while (all.hasNext()) {
      Tuple2<String, String> e = all.next();
      if (e._1().startsWith(PREFIX)) {
        entries.put(e._1(), e._2());
      }
    }
    return entries;
  }

  /** The entries of the session this thread or the JVM uses, if one runs; else those of {@link #submitted()}. */
  public static Map<String, String> active() {
    scala.Option<SparkSession> session = SparkSession.getActiveSession();
    if (session.isEmpty()) {
      session = SparkSession.getDefaultSession();
    }
    return session.isDefined() ? of(session.get()) : submitted();
  }

  /**
   * The entries a driver is started with before it has a session: spark-submit's {@code --conf} and
   * {@code spark-defaults.conf} (spark-submit passes them as system properties) and {@code -Dspark.dssync.*}.
   */
  public static Map<String, String> submitted() {
    Map<String, String> entries = new TreeMap<>();
    for (Tuple2<String, String> e : new SparkConf(true).getAllWithPrefix(PREFIX)) {
      entries.put(PREFIX + e._1(), e._2());
    }
    return entries;
  }
}
