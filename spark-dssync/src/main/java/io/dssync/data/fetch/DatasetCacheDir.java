package io.dssync.data.fetch;

import io.dssync.config.ProcessSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** The root folder every dataset is cached under (one subfolder per dataset). */
public final class DatasetCacheDir {
  /** Environment variable ({@link ProcessSettings#DATA_DIR}), then system property, naming the cache root. */
  public static final String DATA_DIR_ENV = ProcessSettings.DATA_DIR.key();
  public static final String DATA_DIR_PROPERTY = "dssync.dataDir";

  private DatasetCacheDir() {}

  /** {@code $DSSYNC_DATA_DIR}, else {@code -Ddssync.dataDir}, else {@code ~/.cache/dssync/datasets}.
   */
  public static Path defaultDir() {
    return resolve(System.getenv(), System.getProperties());
  }

  public static Path resolve(Map<String, String> env, Properties properties) {
    return ProcessSettings.DATA_DIR.parse(env.get(DATA_DIR_ENV))
        .or(() -> ProcessSettings.DATA_DIR.parse(properties.getProperty(DATA_DIR_PROPERTY)))
        .orElse(Path.of(properties.getProperty("user.home"), ".cache", "dssync", "datasets"));
  }
}
