package io.dssync.data.fetch;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** The root folder every dataset is cached under (one subfolder per dataset). */
public final class DatasetCacheDir {
  /** Environment variable, then system property, naming the dataset cache root. */
  public static final String DATA_DIR_ENV = "DSSYNC_DATA_DIR";
  public static final String DATA_DIR_PROPERTY = "dssync.dataDir";

  private DatasetCacheDir() {}

  /** {@code $DSSYNC_DATA_DIR}, else {@code -Ddssync.dataDir}, else {@code ~/.cache/dssync/datasets}.
   */
  public static Path defaultDir() {
    return resolve(System.getenv(), System.getProperties());
  }

  public static Path resolve(Map<String, String> env, Properties properties) {
    String fromEnv = env.get(DATA_DIR_ENV);
    if (fromEnv != null && !fromEnv.isBlank()) {
      return Path.of(fromEnv);
    }
    String fromProperty = properties.getProperty(DATA_DIR_PROPERTY);
    if (fromProperty != null && !fromProperty.isBlank()) {
      return Path.of(fromProperty);
    }
    return Path.of(properties.getProperty("user.home"), ".cache", "dssync", "datasets");
  }
}
