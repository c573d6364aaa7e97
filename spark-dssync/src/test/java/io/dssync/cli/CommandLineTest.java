package io.dssync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import io.dssync.launch.CommandFlags;
import io.dssync.metrics.StageMetrics;
import io.dssync.train.Setting;
import io.dssync.train.Setting.Group;
import io.dssync.train.TrainerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rough edges of the command line: version, grouped help, --flag=value, --resume, warnings, hints, progress. */
class CommandLineTest {
  private final CliRun cli = new CliRun();


  @Test
  void versionPrintsTheMavenProjectVersion() throws Exception {
    String pom = Files.readString(Path.of("pom.xml"));
    Matcher parent = Pattern.compile("<parent>.*?<version>([^<]+)</version>", Pattern.DOTALL).matcher(pom);
    assertTrue(parent.find(), "the module's pom names its parent's version");
    assertEquals(0, cli.run("--version"));
    assertTrue(cli.out().startsWith("dssync " + parent.group(1) + " (Spark "), cli.out());
  }

  @Test
  void trainHelpListsEveryFlagUnderItsGroup() {
    assertEquals(0, cli.run("train", "--help"));
    String help = cli.out();
    int previous = -1;
    for (Group g : Group.values()) {
      String title = Character.toUpperCase(g.title().charAt(0)) + g.title().substring(1) + ":\n";
      int at = help.indexOf("\n" + title);
      assertTrue(at > previous, "group '" + title.trim() + "' missing or out of order:\n" + help);
      previous = at;
    }
    for (Setting<?> s : TrainerConfig.ALL) {
      String heading = Character.toUpperCase(s.group().title().charAt(0)) + s.group().title().substring(1) + ":\n";
      int section = help.indexOf("\n" + heading);
      int next = help.indexOf("\n\n", section + 1);
      int line = help.indexOf("  " + s.flag() + " VALUE", section);
      assertTrue(line > section && line < next, s.flag() + " is not under " + heading.trim() + ":\n" + help);
    }
    assertTrue(help.contains("--group-size=VALUE") || help.contains("--flag=VALUE"), help);
  }

  @Test
  void everySettingDeclaresItsHelpGroup() {
    for (Setting<?> s : TrainerConfig.ALL) {
      assertTrue(s.group() != null, s.name() + " declares no group: add .in(Group.X) to its declaration"
          + " in TrainerConfig");
    }
  }

  @Test
  void flagEqualsValueIsReadLikeFlagSpaceValue() {
    assertEquals(Map.of("--group-size", "3", "--racks", "a,b;c=d"),
        CommandFlags.pairs(new String[] {"--group-size=3", "--racks", "a,b;c=d"}));
    assertEquals(Map.of("--checkpoint-dir", ""), CommandFlags.pairs(new String[] {"--checkpoint-dir="}));
    assertEquals(2, cli.run("train", "--group-size=0"));
    assertTrue(cli.err().contains("Invalid --group-size = 0"), cli.err());
  }

  @Test
  void reportTakesOutEqualsDir(@TempDir Path tmp) throws Exception {
    Path metrics = Files.writeString(tmp.resolve("run.jsonl"), "{\"type\":\"run\",\"run\":\"a\"}\n");
    Path out = tmp.resolve("charts");
    assertEquals(0, cli.run("report", "--out=" + out, metrics.toString()), cli.err());
    assertTrue(Files.isRegularFile(out.resolve("index.html")), cli.out());
  }

  @Test
  void resumeFromADirectoryThatDoesNotExistIsAnError(@TempDir Path tmp) {
    String missing = tmp.resolve("no-such-run").toString();
    assertEquals(2, cli.run("train", "--resume", missing, "--dataset", "no-such-dataset"));
    assertTrue(cli.err().contains("Invalid --resume = " + missing + ": the directory does not exist"), cli.err());
    assertTrue(cli.err().contains("--checkpoint-dir " + missing), "names the flag that starts a new run: "
        + cli.err());
    assertFalse(cli.err().contains("no-such-dataset"), "refused before the dataset is looked at: " + cli.err());
  }

  @Test
  void resumeFromAnEmptyDirectoryStartsFreshSayingSo(@TempDir Path tmp) throws Exception {
    Optional<String> note = ResumeDir.check(tmp.toString(), new Configuration());
    assertTrue(note.isPresent() && note.get().contains("holds no checkpoint yet: training starts fresh from step 0"),
        String.valueOf(note));
    Files.createDirectories(tmp.resolve("ckpt-000000000100"));
    assertEquals(Optional.empty(), ResumeDir.check(tmp.toString(), new Configuration()));
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    DsSyncException e = assertThrows(DsSyncException.class, () -> ResumeDir.check(file.toString(), new Configuration()));
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
  }

  @Test
  void groupSizeUnderFullWarnsThatItHasNoEffect() {
    // The unknown dataset stops the command right after its start-up lines, before any Spark work.
    assertEquals(2, cli.run("train", "--schedule", "full", "--group-size", "3", "--dataset", "no-such-dataset"));
    assertTrue(cli.err().contains("[dssync] warning: --group-size 3 has no effect with --schedule full"), cli.err());
  }

  @Test
  void aTextDatasetWithTheDefaultModelSuggestsBertCls() {
    assertEquals(2, cli.run("train", "--dataset", "kjv-books"));
    assertTrue(cli.err().contains("Invalid --model = cnn: dataset kjv-books holds token ids of text"), cli.err());
    assertTrue(cli.err().contains("Use --model bert-cls"), cli.err());
  }

  @Test
  void anImageDatasetWithDeepFmSuggestsAnImageModel() {
    assertEquals(2, cli.run("train", "--dataset", "mnist", "--model", "deepfm"));
    assertTrue(cli.err().contains("Use --model cnn"), cli.err());
  }

  @Test
  void offATerminalProgressPrintsAtLeastEvery30Seconds() {
    AtomicLong clock = new AtomicLong();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Heartbeat heartbeat = new Heartbeat(new PrintStream(bytes, true, StandardCharsets.UTF_8), clock::get);
    clock.set(TimeUnit.SECONDS.toNanos(29));
    heartbeat.tick();
    assertEquals("", bytes.toString(StandardCharsets.UTF_8), "quiet for less than 30 s");
    clock.set(TimeUnit.SECONDS.toNanos(30));
    heartbeat.tick();
    assertTrue(bytes.toString(StandardCharsets.UTF_8).contains(
        "[dssync] still training: stage 1 running, 30 s since the last stage ended (30 s in all)"), bytes.toString());
    heartbeat.onStage(new StageMetrics(0, 0, 10, 0.5, 2.0, 1500, 0.75, 0.6, 0.7, 8, 2, 1, 0.5, 100, 0.01),
        List.of(), 4, 40);
    bytes.reset();
    clock.set(TimeUnit.SECONDS.toNanos(59));
    heartbeat.tick();
    assertEquals("", bytes.toString(StandardCharsets.UTF_8), "a stage line 29 s ago");
    clock.set(TimeUnit.SECONDS.toNanos(60));
    heartbeat.tick();
    clock.set(TimeUnit.SECONDS.toNanos(90));
    heartbeat.tick();
    assertEquals("[dssync] still training: stage 2/4 running, 30 s since the last stage ended (60 s in all)\n"
        + "[dssync] still training: stage 2/4 running, 60 s since the last stage ended (90 s in all)\n",
        bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
  }
}
