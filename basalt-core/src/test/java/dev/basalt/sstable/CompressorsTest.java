package dev.basalt.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.schema.Compression;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every codec round-trips, stores incompressible blocks raw, and rejects garbage cleanly. */
class CompressorsTest {

  @ParameterizedTest
  @EnumSource(Compression.class)
  void roundTripsAndKeepsIncompressibleDataRaw(Compression c) {
    assertThat(Compressors.fromCode(Compressors.code(c))).isEqualTo(c);
    Random rnd = new Random(c.ordinal());
    try (BlockCompressor bc = new BlockCompressor(c)) {
      for (int len : new int[] {0, 1, 17, 1000, 70_000, 300_000}) {
        byte[] text = new byte[len];
        for (int i = 0; i < len; i++) {
          text[i] = (byte) "the quick brown fox ".charAt((i * 7 + i / 100) % 20);
        }
        byte[] noise = new byte[len];
        rnd.nextBytes(noise);
        for (byte[] in : new byte[][] {text, noise}) {
          int n = bc.compress(in, 0, len);
          if (c == Compression.NONE || len == 0) {
            assertThat(n).isEqualTo(-1);
            continue;
          }
          if (in == noise && len > 100) {
            assertThat(n).as("random bytes do not shrink").isEqualTo(-1);
          }
          if (in == text && len >= 1000) {
            assertThat(n).as("text shrinks").isBetween(1, len / 2);
          }
          if (n < 0) {
            continue;
          }
          byte[] stored = Arrays.copyOf(bc.output(), n);
          assertThat(Compressors.checkSize(c, stored, 0, n, len)).isNull();
          byte[] out = new byte[len];
          Compressors.decompress(c, stored, 0, n, out, 0, len);
          assertThat(out).isEqualTo(in);
          // A wrong expected size is an error, not a short or padded result.
          assertThatThrownBy(
                  () -> Compressors.decompress(c, stored, 0, n, new byte[len + 1], 0, len + 1))
              .isInstanceOf(IllegalArgumentException.class);
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void garbageNeverEscapesAsAnotherException(Compression c) {
    Random rnd = new Random(99 + c.ordinal());
    for (int i = 0; i < 2000; i++) {
      byte[] in = new byte[rnd.nextInt(200)];
      rnd.nextBytes(in);
      int outLen = rnd.nextInt(500);
      String problem = Compressors.checkSize(c, in, 0, in.length, outLen);
      if (problem != null) {
        continue;
      }
      try {
        Compressors.decompress(c, in, 0, in.length, new byte[outLen], 0, outLen);
      } catch (IllegalArgumentException expected) {
        // fine
      }
    }
  }
}
