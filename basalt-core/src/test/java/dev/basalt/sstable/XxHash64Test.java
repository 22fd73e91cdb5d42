package dev.basalt.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bloom hash is XXH64 exactly: published values, and aircompressor's own implementation. */
class XxHash64Test {

  private static long hash(String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    return XxHash64.hash(b, 0, b.length, 0);
  }

  @Test
  void matchesPublishedValues() {
    assertThat(hash("")).isEqualTo(0xEF46DB3751D8E999L);
    assertThat(hash("a")).isEqualTo(0xD24EC4F1A98C6E5BL);
    assertThat(hash("abc")).isEqualTo(0x44BC2CF5AD770999L);
  }

  @Test
  void matchesAircompressorsXxHash64OnEveryLengthAndOffset() throws Exception {
    // aircompressor keeps its XXH64 (used for Zstandard checksums) package-private.
    Class<?> c = Class.forName("io.airlift.compress.zstd.XxHash64");
    Method update = c.getMethod("update", byte[].class, int.class, int.class);
    Method digest = c.getMethod("hash");
    update.setAccessible(true);
    digest.setAccessible(true);
    var ctor = c.getDeclaredConstructor();
    ctor.setAccessible(true);
    Random rnd = new Random(42);
    for (int len = 0; len < 200; len++) {
      byte[] b = new byte[len + 7];
      rnd.nextBytes(b);
      int off = rnd.nextInt(8);
      int n = Math.min(len, b.length - off);
      Object h = ctor.newInstance();
      update.invoke(h, b, off, n);
      assertThat(XxHash64.hash(b, off, n, 0)).as("length %d", n).isEqualTo(digest.invoke(h));
    }
  }
}
