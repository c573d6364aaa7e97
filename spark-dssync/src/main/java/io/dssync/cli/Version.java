package io.dssync.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * {@code dssync --version}: the Maven project version, from the jar's manifest
 * ({@code Implementation-Version}) or, when running from class folders, from the resource that the
 * build fills in.
 */
final class Version {
  static final String RESOURCE = "version.properties";

  private Version() {}

  static String text() {
    return "dssync " + number() + " (Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION() + ", Java "
        + Runtime.version().feature() + ")";
  }

  static String number() {
    String fromManifest = Version.class.getPackage().getImplementationVersion();
    if (fromManifest != null && !fromManifest.isBlank()) {
      return fromManifest;
    }
    try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version", "");
        if (!v.isBlank() && !v.startsWith("${")) {
          return v;
        }
      }
    } catch (IOException e) {
      // fall through: a build without the resource
    }
    return "unknown (built without Maven)";
  }
}
