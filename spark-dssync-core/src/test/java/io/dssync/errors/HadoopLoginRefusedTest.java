package io.dssync.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Java 23 and later refuse Hadoop's login deep inside Hadoop ("getSubject is not supported"); the
 * error a user sees names the path, the Java and the fix, and other failures pass unchanged.
 */
class HadoopLoginRefusedTest {
  @Test
  void javasRefusalOfHadoopsLoginNamesThePathTheJavaAndTheFix() {
    DsSyncException e = assertThrows(DsSyncException.class, () -> FileErrors.throughHadoop("file:/runs/a.jsonl", () -> {
      throw new UnsupportedOperationException("getSubject is not supported");
    }));
    assertEquals(ErrorKind.CONFIG, e.kind());
    String m = e.getMessage();
    assertTrue(m.startsWith("Cannot open file:/runs/a.jsonl on Java " + Runtime.version().feature() + ": "), m);
    assertTrue(m.contains("Subject.getSubject") && m.contains("Java 17 or 21") && m.contains("JAVA_HOME"), m);
    assertTrue(e.getCause() instanceof UnsupportedOperationException, String.valueOf(e.getCause()));
  }

  @Test
  void otherFailuresPassThroughUnchanged() {
    UnsupportedOperationException other = new UnsupportedOperationException("append is not supported");
    assertSame(other, assertThrows(UnsupportedOperationException.class,
        () -> FileErrors.throughHadoop("file:/x", () -> {
          throw other;
        })));
    IOException io = new IOException("disk full");
    assertSame(io, assertThrows(IOException.class, () -> FileErrors.throughHadoop("file:/x", () -> {
      throw io;
    })));
  }

  @Test
  void aCallThatSucceedsReturnsItsValue() throws IOException {
    assertEquals("fs", FileErrors.throughHadoop("file:/x", () -> "fs"));
  }
}
