package io.dssync.data;

import io.dssync.data.fetch.DatasetCache;
import io.dssync.data.fetch.ExpectedFile;
import io.dssync.data.fetch.FetchSource;
import io.dssync.errors.DataErrors;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The King James Version (public domain): 31,102 verses, 66 books. Cached as
 * {@code <cacheDir>/kjv/kjv-verses.txt}, one verse a line as Debian's {@code bible -f} prints it,
 * verified by SHA-256; fetched with {@link BibleProgramSource} when missing.
 */
final class KingJamesBible {
  public static final String NAME = "kjv";
  public static final int VERSES = 31_102;
  static final ExpectedFile VERSES_FILE = new ExpectedFile(NAME, "kjv-verses.txt", 4_404_412L,
      "cd45f0c9cedab8e4439bd6486c8952c77cc8b0ecc5d1f6ae3513f2039f47229d");
  private static final Pattern LINE = Pattern.compile("^(\\d?[A-Za-z]+)(\\d+):(\\d+) (.*)$");

  private KingJamesBible() {}

  /** All verses in canonical order, from the cache under {@code cacheDir}, fetching if needed. */
  public static List<Verse> verses(Path cacheDir) {
    Path dir = cacheDir.resolve(NAME);
    try (FetchSource bible = new BibleProgramSource(dir)) {
      return verses(cacheDir, List.of(bible));
    }
  }

  static List<Verse> verses(Path cacheDir, List<FetchSource> sources) {
    Path dir = cacheDir.resolve(NAME);
    DatasetCache cache = new DatasetCache(dir, sources, howToGet(dir));
    String text = new String(cache.obtain(VERSES_FILE), StandardCharsets.UTF_8);
    List<Verse> verses = new ArrayList<>(VERSES);
    for (String line : text.split("\n")) {
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        throw DataErrors.datasetCorrupt(NAME, dir.resolve(VERSES_FILE.name()).toString(),
            "line '" + line + "' is not '<book><chapter>:<verse> <text>'");
      }
      verses.add(new Verse(m.group(1), Integer.parseInt(m.group(2)),
          Integer.parseInt(m.group(3)), m.group(4)));
    }
    return verses;
  }

  /**
   * The fixed train/test split: a verse is a test verse when its chapter number is a multiple
   * of 10 (about 10% of verses). Splitting by whole chapters keeps neighbouring, near-duplicate
   * verses on the same side.
   */
  public static boolean isTest(Verse verse) {
    return verse.chapter() % 10 == 0;
  }

  static String howToGet(Path dir) {
    return "Install the Debian packages (apt-get install " + BibleProgramSource.PROGRAM_PACKAGE
        + ") or let the loader download them (needs apt-get and package lists), or run"
        + " datasets/kjv/fetch.sh, which writes " + dir.resolve(VERSES_FILE.name()) + ".";
  }
}
