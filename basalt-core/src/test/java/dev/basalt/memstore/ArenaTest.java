package dev.basalt.memstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArenaTest {

  @Test
  void rangesDoNotOverlapAndChunksGrowUpToTheMaximum() {
    Arena a = new Arena();
    List<long[]> ranges = new ArrayList<>(); // address, size
    Set<Integer> chunkSizes = new HashSet<>();
    for (int i = 0; i < 40_000; i++) {
      int size = 8 * (1 + i % 40);
      long addr = a.allocate(size);
      assertThat(Arena.offset(addr) % 8).as("aligned").isZero();
      assertThat(Arena.offset(addr) + size).isLessThanOrEqualTo(a.chunk(addr).length);
      chunkSizes.add(a.chunk(addr).length);
      ranges.add(new long[] {addr, size});
    }
    assertThat(chunkSizes).contains(Arena.FIRST_CHUNK, Arena.MAX_CHUNK);
    assertThat(chunkSizes.stream().mapToInt(Integer::intValue).max().getAsInt())
        .isEqualTo(Arena.MAX_CHUNK);
    // Mark every byte of every range; a byte marked twice would be an overlap.
    for (long[] r : ranges) {
      byte[] c = a.chunk(r[0]);
      for (int i = 0; i < r[1]; i++) {
        assertThat(c[Arena.offset(r[0]) + i]).isZero();
        c[Arena.offset(r[0]) + i] = 1;
      }
    }
  }

  @Test
  void aLargeRangeGetsAChunkOfItsOwnAndTheCurrentChunkKeepsServing() {
    Arena a = new Arena();
    long small = a.allocate(64);
    long big = a.allocate(Arena.OWN_CHUNK_ABOVE + 8);
    long next = a.allocate(64);
    assertThat(Arena.offset(big)).isZero();
    assertThat(a.chunk(big)).hasSize(Arena.OWN_CHUNK_ABOVE + 8);
    assertThat(a.chunk(next)).isSameAs(a.chunk(small));
    assertThat(Arena.offset(next)).isEqualTo(Arena.offset(small) + 64);
    assertThat(a.allocatedBytes()).isEqualTo(Arena.FIRST_CHUNK + Arena.OWN_CHUNK_ABOVE + 8);
  }

  @Test
  void aRangeLargerThanTheNextChunkSizeMovesToABigEnoughChunk() {
    Arena a = new Arena();
    a.allocate(8);
    long addr = a.allocate(Arena.OWN_CHUNK_ABOVE); // below the own-chunk limit
    assertThat(a.chunk(addr).length).isGreaterThanOrEqualTo(Arena.OWN_CHUNK_ABOVE);
    assertThat(Arena.offset(addr)).isZero();
  }
}
