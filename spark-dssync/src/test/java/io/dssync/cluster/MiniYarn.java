package io.dssync.cluster;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;

/**
 * A real YARN in this JVM: Hadoop's MiniYARNCluster (one ResourceManager, one NodeManager) on top of
 * a given file system, bound to loopback, with its client configuration written to a folder that a
 * spark-submit outside this JVM reads as HADOOP_CONF_DIR.
 */
final class MiniYarn implements AutoCloseable {
  private final MiniYARNCluster cluster;
  private final Path confDir;

  private MiniYarn(MiniYARNCluster cluster, Path confDir) {
    this.cluster = cluster;
    this.confDir = confDir;
  }

  /**
   * Starts YARN over {@code fs} (its fs.defaultFS becomes the staging file system) with {@code memoryMb} for
   * containers.
   */
  static MiniYarn start(Configuration fs, Path confDir, int memoryMb, int vcores) throws Exception {
    YarnConfiguration conf = new YarnConfiguration(fs);
    conf.set(YarnConfiguration.RM_HOSTNAME, "127.0.0.1");
    // MiniYARNCluster gives its NodeManagers this key's value (default 4096), not NM_PMEM_MB.
    conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, memoryMb);
    conf.setInt(YarnConfiguration.NM_VCORES, vcores);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    // The virtual memory check counts the address space the JVMs and PyTorch reserve, not what they use.
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    // Build machines often have disks over YARN's 90% limit, which would mark the NodeManager unhealthy.
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100.0f);
    // The capacity scheduler's queues (its capacity-scheduler.xml is not in the minicluster jar): one
    // queue, "default", with the whole cluster; the default would let application masters take 10%
    // of it, too little for a cluster-mode driver.
    conf.set("yarn.scheduler.capacity.root.queues", "default");
    conf.setInt("yarn.scheduler.capacity.root.default.capacity", 100);
    conf.setInt("yarn.scheduler.capacity.root.default.maximum-capacity", 100);
    conf.setFloat("yarn.scheduler.capacity.root.default.user-limit-factor", 1);
    conf.set("yarn.scheduler.capacity.root.default.acl_submit_applications", "*");
    conf.setFloat("yarn.scheduler.capacity.maximum-am-resource-percent", 1.0f);
    MiniYARNCluster cluster = new MiniYARNCluster("dssync-yarn", 1, 1, 1);
    cluster.init(conf);
    cluster.start();
    try {
      if (!cluster.waitForNodeManagersToConnect(60_000)) {
        throw new IllegalStateException("the NodeManager did not register with the ResourceManager within 60 s");
      }
      writeClientConf(cluster.getConfig(), confDir);
      return new MiniYarn(cluster, confDir);
    } catch (Exception e) {
      cluster.stop();
      throw e;
    }
  }

  /**
   * The client's site files: the file system and the ResourceManager's real addresses only. The full
   * configuration would also carry test-only settings of the mini clusters (e.g. a topology mapping
   * class of the minicluster jar) that a client's class path lacks.
   */
  private static void writeClientConf(Configuration running, Path dir) throws IOException {
    Configuration client = new Configuration(false);
    client.set("fs.defaultFS", running.get("fs.defaultFS"));
    for (Map.Entry<String, String> e : running) {
      if (e.getKey().startsWith("yarn.resourcemanager.") && e.getKey().endsWith("address")) {
        String address = running.get(e.getKey());
        if (address.endsWith(":0")) {
          throw new IllegalStateException(e.getKey() + " is still unbound: " + address);
        }
        client.set(e.getKey(), address);
      }
    }
    Files.createDirectories(dir);
    for (String site : List.of("core-site.xml", "yarn-site.xml")) {
      try (OutputStream out = Files.newOutputStream(dir.resolve(site))) {
        client.writeXml(out);
      }
    }
  }

  Path confDir() {
    return confDir;
  }

  /** The NodeManager's log folder of each application it ran (application_*), holding one folder per container. */
  Set<Path> applicationLogDirs() {
    Set<Path> apps = new TreeSet<>();
    for (String dir : cluster.getNodeManager(0).getConfig().getTrimmedStrings(YarnConfiguration.NM_LOG_DIRS)) {
      File[] found = new File(dir.replaceFirst("^file:", "")).listFiles(f -> f.getName().startsWith("application_"));
      for (File app : found == null ? new File[0] : found) {
        apps.add(app.toPath());
      }
    }
    return apps;
  }

  @Override
  public void close() {
    cluster.stop();
  }
}
