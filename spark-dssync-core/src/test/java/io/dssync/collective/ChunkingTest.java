package io.dssync.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dssync.errors.DsSyncException;
import org.junit.jupiter.api.Test;

class ChunkingTest {

  @Test
  void chunksCoverTheVectorExactlyWithoutOverlap() {
    for (int size = 0; size <= 60; size++) {
      for (int g = 1; g <= 9; g++) {
        int next = 0;
        for (int j = 0; j < g; j++) {
          assertEquals(next, Chunking.offset(size, g, j), "offset size=" + size + " g=" + g + " j=" + j);
          next += Chunking.length(size, g, j);
        }
        assertEquals(size, next, "chunks end at the vector end, size=" + size + " g=" + g);
      }
    }
  }

  @Test
  void lengthsDifferByAtMostOneWithTheLongerChunksFirst() {
    for (int size = 0; size <= 60; size++) {
      for (int g = 1; g <= 9; g++) {
        for (int j = 1; j < g; j++) {
          int diff = Chunking.length(size, g, j - 1) - Chunking.length(size, g, j);
          assertTrue(diff == 0 || diff == 1, "size=" + size + " g=" + g + " j=" + j);
        }
      }
    }
  }

  @Test
  void vectorShorterThanGroupHasEmptyTrailingChunks() {
    assertEquals(1, Chunking.length(2, 5, 1));
    assertEquals(0, Chunking.length(2, 5, 2));
    assertEquals(2, Chunking.offset(2, 5, 4));
  }

  @Test
  void badArgumentsAreRejected() {
    assertThrows(DsSyncException.class, () -> Chunking.length(10, 0, 0));
    assertThrows(DsSyncException.class, () -> Chunking.offset(-1, 2, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> Chunking.offset(10, 2, 2));
  }
}
