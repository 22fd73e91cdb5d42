package dev.basalt.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The filter never denies an added key, and its false-positive rate is about 1%. */
class BloomFilterTest {

  private static long key(String s) {
    byte[] b = Bytes.toBytes(s);
    return BloomKeys.rowHash(b, 0, b.length);
  }

  @Test
  void noFalseNegativesAndAboutOnePercentFalsePositives() throws CorruptStoreFileException {
    int n = 20_000;
    long[] hashes = new long[n];
    for (int i = 0; i < n; i++) {
      hashes[i] = key("row-" + i);
    }
    BloomFilter f = BloomFilter.build(hashes, n);
    assertThat(f.bitCount())
        .isGreaterThanOrEqualTo((long) (n * 9.6))
        .isLessThan((long) (n * 9.6) + 64);
    for (int i = 0; i < n; i++) {
      assertThat(f.mightContain(hashes[i])).as("key %d", i).isTrue();
    }
    int probes = 200_000;
    int falsePositives = 0;
    for (int i = 0; i < probes; i++) {
      if (f.mightContain(key("absent-" + i))) {
        falsePositives++;
      }
    }
    double rate = (double) falsePositives / probes;
    System.out.printf(
        "bloom false-positive rate: %.3f%% (%d keys, %d probes)%n", rate * 100, n, probes);
    assertThat(rate).isBetween(0.003, 0.025);

    // Encoded and decoded, it answers the same.
    ByteSink out = new ByteSink(16);
    f.encode(out);
    BloomFilter g =
        BloomFilter.decode(new ByteReader(out.array(), 0, out.size(), "test", 0, "bloom block"));
    assertThat(g.bitCount()).isEqualTo(f.bitCount());
    assertThat(g.keyCount()).isEqualTo(n);
    Random rnd = new Random(1);
    for (int i = 0; i < 10_000; i++) {
      long h = rnd.nextLong();
      assertThat(g.mightContain(h)).isEqualTo(f.mightContain(h));
    }
  }

  @Test
  void emptyFilterContainsNothing() {
    BloomFilter f = BloomFilter.build(new long[0], 0);
    assertThat(f.bitCount()).isEqualTo(64);
    assertThat(f.mightContain(key("x"))).isFalse();
  }

  @Test
  void columnKeysKeepRowAndQualifierApart() {
    byte[][] scratch = new byte[1][];
    byte[] ab = Bytes.toBytes("ab");
    byte[] c = Bytes.toBytes("c");
    byte[] a = Bytes.toBytes("a");
    byte[] bc = Bytes.toBytes("bc");
    long h1 = BloomKeys.columnHash(ab, 0, 2, c, 0, 1, scratch);
    long h2 = BloomKeys.columnHash(a, 0, 1, bc, 0, 2, scratch);
    assertThat(h1).isNotEqualTo(h2);
    // The family-delete key of a row differs from the column key of that row's empty qualifier.
    assertThat(BloomKeys.familyDeleteHash(ab, 0, 2, scratch))
        .isNotEqualTo(BloomKeys.columnHash(ab, 0, 2, Bytes.EMPTY, 0, 0, scratch));
  }

  @Test
  void decodeRejectsImpossibleHeaders() {
    ByteSink out = new ByteSink(16);
    BloomFilter.build(new long[] {1, 2, 3}, 3).encode(out);
    byte[] good = out.toByteArray();
    int[][] edits = {{0, 9}, {1, 0}, {1, 31}, {9, 65}, {9, 0}};
    for (int[] e : edits) {
      byte[] b = good.clone();
      b[e[0]] = (byte) e[1];
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> BloomFilter.decode(new ByteReader(b, 0, b.length, "t", 7, "bloom block")))
          .isInstanceOf(CorruptStoreFileException.class);
    }
  }
}
