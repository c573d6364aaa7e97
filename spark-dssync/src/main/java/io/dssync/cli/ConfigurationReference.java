package io.dssync.cli;

import io.dssync.config.ProcessSetting;
import io.dssync.config.ProcessSettings;
import io.dssync.launch.TrainingArgs.RunFlag;
import io.dssync.train.Setting;
import io.dssync.train.Setting.Group;
import io.dssync.train.TrainerConfig;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The settings tables of docs/configuration.md, generated from the settings' own declarations ({@link
 * TrainerConfig#ALL}, {@link RunFlag}, {@link RunOption}, {@link ProcessSettings#ALL}) so the page cannot drift
 * from the code. The page keeps its prose; only the text between {@link #BEGIN} and {@link #END} is
 * generated. {@code ConfigurationReferenceTest} fails when the committed page differs; regenerate
 * with {@link #REGENERATE}, or run this class's main with the page's path.
 */
public final class ConfigurationReference {
  public static final String REGENERATE =
      "mvn -q -pl spark-dssync -am test -Dtest=ConfigurationReferenceTest -Ddssync.regenerateDocs=true";
  public static final String BEGIN = "<!-- BEGIN GENERATED settings: edit the declarations in TrainerConfig, then run "
      + REGENERATE + " -->";
  public static final String END = "<!-- END GENERATED settings -->";

  private ConfigurationReference() {}

  /** Rewrites the generated block of the page at {@code args[0]} (default: docs/configuration.md). */
  public static void main(String[] args) throws IOException {
    Path page = Path.of(args.length > 0 ? args[0] : "docs/configuration.md");
    Files.writeString(page, update(Files.readString(page, StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
  }

  /** {@code page} with its generated block replaced by {@link #block()}. */
  public static String update(String page) {
    int begin = page.indexOf(BEGIN);
    int end = page.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException("The page has no generated block: put the two lines\n" + BEGIN + "\n" + END
          + "\nwhere the tables belong.");
    }
    return page.substring(0, begin) + block() + page.substring(end + END.length());
  }

  /** The generated block, markers included. */
  public static String block() {
    Map<Setting<?>, String> constants = constantNames();
    StringBuilder sb = new StringBuilder(BEGIN).append("\n");
    for (Group group : Group.values()) {
      sb.append("\n### ").append(Character.toUpperCase(group.title().charAt(0))).append(group.title().substring(1))
          .append("\n\n| flag | Java constant, key | default | accepted values | meaning |\n")
          .append("|---|---|---|---|---|\n");
      for (Setting<?> s : TrainerConfig.ALL) {
        if (s.group() == null) {
          throw new IllegalStateException("Setting " + s.name() + " declares no help group: add .in(Group.X) to its"
              + " declaration in TrainerConfig.");
        }
        if (s.group() == group) {
          sb.append("| `").append(s.flag()).append("` | `TrainerConfig.").append(constants.get(s)).append("`, `")
              .append(s.sparkConfKey()).append("` | ").append(defaultText(s.defaultValue())).append(" | ")
              .append(cell(s.rule())).append(" | ").append(cell(s.doc())).append(" |\n");
        }
      }
      for (RunOption o : RunOption.values()) {
        if (o.group == group) {
          sb.append("| `").append(o.flag).append("` | (command line only) | ").append(defaultText(o.defaultText))
              .append(" | | ").append(cell(o.doc)).append(" |\n");
        }
      }
      for (RunFlag f : RunFlag.values()) {
        if (f.group == group) {
          sb.append("| `").append(f.flag).append("` | (command line only) | ").append(defaultText(f.defaultText))
              .append(" | | ").append(cell(f.doc)).append(" |\n");
        }
      }
    }
    processSettings(sb, "Environment variables", "variable", ProcessSetting.Source.ENVIRONMENT,
        ProcessSetting.Source.LAUNCHER);
    processSettings(sb, "Spark properties of the data plane", "key", ProcessSetting.Source.SPARK_CONF,
        ProcessSetting.Source.SPARK_CONF_PREFIX);
    return sb.append("\n").append(END).toString();
  }

  /** The {@link ProcessSettings} read from {@code sources}, as a table under {@code title}. */
  private static void processSettings(StringBuilder sb, String title, String column, ProcessSetting.Source... sources) {
    sb.append("\n### ").append(title).append("\n\n| ").append(column).append(" | default | meaning |\n|---|---|---|\n");
    for (ProcessSetting<?> s : ProcessSettings.ALL) {
      if (java.util.Arrays.asList(sources).contains(s.source())) {
        String key = s.source() == ProcessSetting.Source.SPARK_CONF_PREFIX ? s.key() + "*" : s.key();
        String who = s.source() == ProcessSetting.Source.LAUNCHER ? " Read by the launch scripts." : "";
        // A default in words ("python3 on the PATH") reads as prose, a value as code.
        String value = s.defaultText().contains(" ") ? s.defaultText() : defaultText(s.defaultText());
        sb.append("| `").append(key).append("` | ").append(value).append(" | ")
            .append(cell(s.doc() + who)).append(" |\n");
      }
    }
  }

  private static String defaultText(Object value) {
    String text = String.valueOf(value);
    return text.isEmpty() ? "(none)" : "`" + text + "`";
  }

  /** Text safe in a Markdown table cell: no column breaks, no opening angle bracket read as HTML. */
  private static String cell(String text) {
    return text.replace("|", "\\|").replace("<", "&lt;");
  }

  /** The TrainerConfig constant of each setting, found by reflection so no list is kept by hand. */
  private static Map<Setting<?>, String> constantNames() {
    Map<Setting<?>, String> names = new IdentityHashMap<>();
    for (Field f : TrainerConfig.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && Setting.class.isAssignableFrom(f.getType())) {
        try {
          names.put((Setting<?>) f.get(null), f.getName());
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return names;
  }
}
