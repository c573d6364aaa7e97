package io.dssync.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.dflib.jjava.jupyter.kernel.BaseKernel;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;

/** Helpers for notebook cells running on this kernel. */
public final class Notebook {
  private Notebook() {}

  /** Shows a PNG file inline in the notebook (prints its path when no kernel is running). */
  public static void showPng(String file) throws IOException {
    BaseKernel kernel = BaseKernel.notebookKernel();
    if (kernel == null) {
      System.out.println(file);
      return;
    }
    DisplayData data = new DisplayData();
    data.putData("image/png", Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of(file))));
    data.putText(file);
    kernel.display(data);
  }
}
