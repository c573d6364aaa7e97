package io.dssync.data;

/** One Bible verse: the book's short name as the {@code bible} program prints it ("Ge", "Mat"). */
record Verse(String book, int chapter, int verse, String text) {}
