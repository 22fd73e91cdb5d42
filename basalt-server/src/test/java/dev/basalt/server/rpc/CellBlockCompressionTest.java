package dev.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.util.BasaltIOException;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class CellBlockCompressionTest {

  @Property(tries = 50)
  void roundTrips(@ForAll @Size(max = 5000) byte[] block, @ForAll CellBlockCompression c)
      throws Exception {
    byte[] packed = c.compress(block);
    assertThat(c.decompress(packed, 0, packed.length, 10_000)).isEqualTo(block);
  }

  @Test
  void streamsAreTheStandardOnes() {
    byte[] gz = CellBlockCompression.GZIP.compress(new byte[10]);
    assertThat(gz[0] & 0xff).isEqualTo(0x1f); // gzip magic
    assertThat(gz[1] & 0xff).isEqualTo(0x8b);
    byte[] z = CellBlockCompression.ZLIB.compress(new byte[10]);
    assertThat(z[0] & 0xff).isEqualTo(0x78); // zlib header, deflate with a 32K window
  }

  @Test
  void decompressionStopsAtTheLimit() {
    byte[] bomb = CellBlockCompression.GZIP.compress(new byte[1 << 20]);
    assertThat(bomb.length).isLessThan(5000);
    assertThatThrownBy(() -> CellBlockCompression.GZIP.decompress(bomb, 0, bomb.length, 4096))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("more than the maximum of 4096 bytes");
  }

  @Test
  void corruptStreamsAreNamed() {
    byte[] z = CellBlockCompression.ZLIB.compress(new byte[100]);
    byte[] cut = Arrays.copyOf(z, z.length - 6);
    assertThatThrownBy(() -> CellBlockCompression.ZLIB.decompress(cut, 0, cut.length, 1000))
        .hasMessageContaining("not a valid org.apache.hadoop.io.compress.DefaultCodec stream");
    byte[] junk = {1, 2, 3, 4, 5};
    assertThatThrownBy(() -> CellBlockCompression.GZIP.decompress(junk, 0, junk.length, 1000))
        .hasMessageContaining("not a valid org.apache.hadoop.io.compress.GzipCodec stream");
  }

  @Test
  void hadoopClassNames() {
    assertThat(CellBlockCompression.forClassName("org.apache.hadoop.io.compress.GzipCodec"))
        .isEqualTo(CellBlockCompression.GZIP);
    assertThat(CellBlockCompression.forClassName("org.apache.hadoop.io.compress.DefaultCodec"))
        .isEqualTo(CellBlockCompression.ZLIB);
    assertThat(CellBlockCompression.forClassName("org.apache.hadoop.io.compress.SnappyCodec"))
        .isNull();
  }
}
