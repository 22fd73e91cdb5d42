package dev.basalt.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Data block encoding: cells round-trip with their sequence ids and per-cell TTLs, restart points
 * are where the format says, and the decoder turns any bytes that are not a block into {@link
 * CorruptStoreFileException}, never an index or allocation error.
 */
class DataBlockCodecTest {

  private static byte[] encode(List<KeyValue> cells) {
    DataBlockEncoder e = new DataBlockEncoder(1 << 16);
    for (KeyValue kv : cells) {
      e.add(kv);
    }
    ByteSink out = e.finish();
    return java.util.Arrays.copyOf(out.array(), out.size());
  }

  @Property(tries = 100)
  void cellsRoundTrip(@ForAll long seed, @ForAll @IntRange(min = 1, max = 80) int n)
      throws CorruptStoreFileException {
    List<KeyValue> cells = TestCells.random(new Random(seed), n, 6, 300);
    byte[] payload = encode(cells);
    int restarts = Bytes.readInt(payload, payload.length - 4);
    assertThat(restarts).isEqualTo((n + 15) / 16);
    DataBlock b = DataBlockDecoder.decode(payload, 0, payload.length, "t", 0, true);
    assertThat(b.count()).isEqualTo(n);
    for (int i = 0; i < n; i++) {
      TestCells.assertSameCell(b.cell(i), cells.get(i), "cell " + i);
      KeyValue kv = cells.get(i);
      assertThat(b.ceiling(0, kv.getBuffer(), kv.keyOffset(), kv.keyLength(), kv.getSequenceId()))
          .isEqualTo(i);
    }
    // Restart entries store their whole key: decoding from a restart offset needs nothing before.
    for (int r = 0; r < restarts; r++) {
      int at = Bytes.readInt(payload, payload.length - 4 - 4 * restarts + 4 * r);
      assertThat(payload[at]).as("restart %d shares nothing", r).isZero();
    }
  }

  @Test
  void theTtlFlagCostsNothingButABitOfTheSequenceId() throws CorruptStoreFileException {
    KeyValue plain =
        KeyValue.of(
                Bytes.toBytes("r"),
                Bytes.toBytes("f"),
                Bytes.toBytes("q"),
                5,
                dev.basalt.cell.CellType.PUT,
                Bytes.toBytes("v"))
            .withSequenceId(7);
    byte[] payload = encode(List.of(plain, plain.withSequenceId(6).withTtl(-3)));
    // Entry 0: shared 0, unshared 15, value 1, sequence id 7 * 2; entry 1: 6 * 2 + 1, then its TTL.
    assertThat(java.util.Arrays.copyOfRange(payload, 0, 4)).containsExactly(0, 15, 1, 14);
    int second = 4 + 15 + 1;
    assertThat(java.util.Arrays.copyOfRange(payload, second, second + 4))
        .containsExactly(15, 0, 1, 13);
    assertThat(Bytes.readLong(payload, second + 4)).isEqualTo(-3);
    DataBlock b = DataBlockDecoder.decode(payload, 0, payload.length, "t", 0, true);
    assertThat(b.cell(0).getTtl()).isEqualTo(KeyValue.NO_TTL);
    assertThat(b.cell(1).getTtl()).isEqualTo(-3);
    assertThat(b.cell(1).getSequenceId()).isEqualTo(6);
    // Format version 1 entries hold the sequence id itself (no flag bit).
    byte[] plainOnly = encode(List.of(plain));
    assertThat(DataBlockDecoder.decode(plainOnly, 0, plainOnly.length, "t", 0, false).seqId(0))
        .isEqualTo(14);
  }

  private static int compare(KeyValue a, KeyValue b) {
    return dev.basalt.cell.CellComparator.INSTANCE.compare(a, b);
  }

  /** Binary searches (with packed row prefixes) agree with a linear walk for any key. */
  @Property(tries = 200)
  void blockAndIndexSearchesAgreeWithALinearWalk(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 60) int n)
      throws CorruptStoreFileException {
    Random rnd = new Random(seed);
    // Few rows, so blocks often share long row prefixes; sometimes one row only.
    List<KeyValue> cells = TestCells.random(rnd, n, 1 + rnd.nextInt(4), 5);
    byte[] payload = encode(cells);
    DataBlock b = DataBlockDecoder.decode(payload, 0, payload.length, "t", 0, true);
    IndexEntries entries = new IndexEntries();
    for (int i = 0; i < n; i++) {
      KeyValue kv = cells.get(i);
      entries.add(kv.getBuffer(), kv.keyOffset(), kv.keyLength(), kv.getSequenceId(), i, 20);
    }
    BlockIndex index = entries.toIndex();
    for (int t = 0; t < 100; t++) {
      KeyValue key =
          rnd.nextBoolean()
              ? KeyBytesTest.randomKey(rnd)
              : cells.get(rnd.nextInt(n)).withSequenceId(rnd.nextInt(3 * n + 2));
      int from = rnd.nextInt(n);
      int ceiling = from;
      while (ceiling < n && compare(cells.get(ceiling), key) < 0) {
        ceiling++;
      }
      byte[] kb = key.getBuffer();
      int ko = key.keyOffset();
      int kl = key.keyLength();
      long ks = key.getSequenceId();
      assertThat(b.ceiling(from, kb, ko, kl, ks))
          .as("ceiling of %s from %d", key, from)
          .isEqualTo(ceiling);
      int last = from;
      for (int i = from; i < n; i++) {
        if (compare(cells.get(i), key) <= 0) {
          last = i;
        }
      }
      assertThat(index.find(from, kb, ko, kl, ks)).as("find %s from %d", key, from).isEqualTo(last);
    }
  }

  @Test
  void prefixCompressionSharesKeyBytes() {
    List<KeyValue> cells = TestCells.random(new Random(1), 200, 3, 0);
    int raw = 0;
    for (KeyValue kv : cells) {
      raw += kv.getLength();
    }
    assertThat(encode(cells).length).isLessThan(raw * 2 / 3);
  }

  /** Decoding must either fail cleanly or give cells whose every field lies inside its bytes. */
  private static void decodeOrReject(byte[] payload) {
    try {
      DataBlock b = DataBlockDecoder.decode(payload, 0, payload.length, "t", 0, true);
      for (int i = 0; i < b.count(); i++) {
        KeyValue kv = b.cell(i);
        KeyValue.parse(kv.getBuffer(), kv.getOffset(), kv.getLength(), kv.getSequenceId());
        kv.toString();
      }
    } catch (CorruptStoreFileException expected) {
      // fine
    } catch (RuntimeException e) {
      fail("decoding " + Bytes.toStringBinary(payload) + " threw " + e, e);
    }
  }

  @Property(tries = 200)
  void garbageAndDamagedBlocksAreRejectedCleanly(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 400) int len) {
    Random rnd = new Random(seed);
    byte[] junk = new byte[len];
    rnd.nextBytes(junk);
    if (len >= 8 && rnd.nextBoolean()) {
      Bytes.putInt(junk, len - 4, 1 + rnd.nextInt(3)); // a plausible restart count
      Bytes.putInt(junk, len - 8, 0);
    }
    decodeOrReject(junk);
    byte[] good = encode(TestCells.random(rnd, 1 + rnd.nextInt(40), 5, 30));
    for (int i = 0; i < 50; i++) {
      byte[] bad = good.clone();
      for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
        bad[rnd.nextInt(bad.length)] ^= (byte) (1 + rnd.nextInt(255));
      }
      decodeOrReject(bad);
      decodeOrReject(java.util.Arrays.copyOf(good, rnd.nextInt(good.length)));
    }
  }
}
