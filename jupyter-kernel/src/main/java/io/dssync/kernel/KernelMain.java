package io.dssync.kernel;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dflib.jjava.jupyter.channels.JupyterConnection;
import org.dflib.jjava.jupyter.kernel.KernelConnectionProperties;

/** Entry point Jupyter starts: {@code java ... io.dssync.kernel.KernelMain <connection file>}. */
public final class KernelMain {
  private KernelMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("Usage: KernelMain <connection file> (Jupyter passes it as {connection_file}).");
      System.exit(2);
    }
    KernelConnectionProperties props = KernelConnectionProperties.parse(Files.readString(Path.of(args[0])));
    JupyterConnection connection = new JupyterConnection(props);
    JShellKernel kernel = JShellKernel.create();
    kernel.becomeHandlerForConnection(connection);
    // Makes BaseKernel.notebookKernel() (used by Notebook.showPng) return this kernel.
    kernel.onStartup();
    connection.connect();
    connection.waitUntilClose();
  }
}
