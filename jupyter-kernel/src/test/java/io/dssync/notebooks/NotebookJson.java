package io.dssync.notebooks;

import java.util.List;
import java.util.stream.Collectors;

/** Small JSON documents for the notebook tests: a kernel spec and a notebook of code cells. */
final class NotebookJson {
  private NotebookJson() {}

  static String kernelSpec(List<String> argv, String displayName) {
    return "{\n  \"argv\": [" + argv.stream().map(NotebookJson::quote).collect(Collectors.joining(", "))
        + "],\n  \"display_name\": " + quote(displayName) + ",\n  \"language\": \"java\",\n"
        + "  \"interrupt_mode\": \"message\"\n}\n";
  }

  static String of(String kernel, String... cells) {
    String body = List.of(cells).stream()
        .map(c -> "{\"cell_type\": \"code\", \"execution_count\": null, \"metadata\": {}, \"outputs\": [],"
            + " \"source\": [" + quote(c) + "]}")
        .collect(Collectors.joining(",\n"));
    return "{\"cells\": [\n" + body + "\n], \"metadata\": {\"kernelspec\": {\"name\": " + quote(kernel)
        + ", \"display_name\": \"Java (dssync)\", \"language\": \"java\"}, \"language_info\": {\"name\": \"java\"}},"
        + " \"nbformat\": 4, \"nbformat_minor\": 5}\n";
  }

  static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        default -> sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
