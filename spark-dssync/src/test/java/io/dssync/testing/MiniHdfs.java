package io.dssync.testing;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/** A real one-datanode HDFS in this JVM, under the build folder, bound to 127.0.0.1. */
public final class MiniHdfs implements AutoCloseable {
  private final MiniDFSCluster cluster;

  private MiniHdfs(MiniDFSCluster cluster) {
    this.cluster = cluster;
  }

  public static MiniHdfs start() throws IOException {
    File base = new File(System.getProperty("dssync.buildDir", "target"), "minidfs-" + System.nanoTime());
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getAbsolutePath());
    conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.setBoolean("dfs.permissions.enabled", false);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
    return new MiniHdfs(cluster);
  }

  /** hdfs://host:port/{@code path} */
  public String uri(String path) {
    return "hdfs://127.0.0.1:" + cluster.getNameNodePort() + "/" + path;
  }

  /** The client configuration of this file system (its fs.defaultFS included). */
  public Configuration configuration() {
    return cluster.getConfiguration(0);
  }

  @Override
  public void close() {
    cluster.shutdown(true);
  }
}
