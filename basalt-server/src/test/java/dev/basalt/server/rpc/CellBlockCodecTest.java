package dev.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.util.BasaltIOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class CellBlockCodecTest {

  /** The entry the protocol document shows as observed from the stock client for a Put. */
  @Test
  void encodesThePutSeenOnTheWire() {
    KeyValue kv =
        KeyValue.of(
            Bytes.toBytes("r2"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            5,
            CellType.PUT,
            Bytes.toBytes("v2"));
    byte[] block = CellBlockCodec.KEY_VALUE.encode(List.of(kv));
    assertThat(HexFormat.of().formatHex(block))
        .isEqualTo(
            "0000001a"
                + "00000010"
                + "00000002"
                + "0002"
                + "7232"
                + "01"
                + "66"
                + "71"
                + "0000000000000005"
                + "04"
                + "7632");
  }

  @Test
  void plainCodecDropsTagsAndTagCodecKeepsThem() throws Exception {
    KeyValue kv = TestServices.cell("r", "q", 1, "v");
    byte[] tags = {0, 2, 7, 42};
    TaggedCell tagged = new TaggedCell(kv, tags, 0, tags.length);

    byte[] plain = CellBlockCodec.KEY_VALUE.encode(List.of(tagged));
    assertThat(plain).hasSize(4 + kv.getLength());
    assertThat(CellBlockCodec.KEY_VALUE.decode(plain, 0, plain.length)).containsExactly(kv);

    byte[] withTags = CellBlockCodec.KEY_VALUE_WITH_TAGS.encode(List.of(tagged));
    assertThat(withTags).hasSize(4 + kv.getLength() + 2 + tags.length);
    List<Cell> back = CellBlockCodec.KEY_VALUE_WITH_TAGS.decode(withTags, 0, withTags.length);
    assertThat(back).containsExactly(tagged);
    assertThat(((TaggedCell) back.get(0)).tags()).isEqualTo(tags);
  }

  @Test
  void cellsWithoutTagsAreWrittenWithoutATagsLength() {
    KeyValue kv = TestServices.cell("r", "q", 1, "v");
    assertThat(CellBlockCodec.KEY_VALUE_WITH_TAGS.encode(List.of(kv)))
        .isEqualTo(CellBlockCodec.KEY_VALUE.encode(List.of(kv)));
  }

  @Test
  void plainCodecRefusesTags() {
    KeyValue kv = TestServices.cell("r", "q", 1, "v");
    byte[] withTags =
        CellBlockCodec.KEY_VALUE_WITH_TAGS.encode(
            List.of(new TaggedCell(kv, new byte[] {0, 1, 9}, 0, 3)));
    assertThatThrownBy(() -> CellBlockCodec.KEY_VALUE.decode(withTags, 0, withTags.length))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("KeyValueCodec carries no tags");
  }

  @Test
  void truncatedAndInconsistentBlocksNameTheOffset() {
    byte[] one = CellBlockCodec.KEY_VALUE.encode(TestServices.cells(2));
    int first = 4 + TestServices.cells(1).get(0).getLength();
    assertThatThrownBy(() -> CellBlockCodec.KEY_VALUE.decode(one, 0, one.length - 1))
        .hasMessageContaining("malformed cell block at byte " + first)
        .hasMessageContaining("bytes left in the block");
    assertThatThrownBy(() -> CellBlockCodec.KEY_VALUE.decode(one, 0, first + 2))
        .hasMessageContaining("only 2 bytes left");
    byte[] shortCell = {0, 0, 0, 4, 0, 0, 0, 0};
    assertThatThrownBy(() -> CellBlockCodec.KEY_VALUE.decode(shortCell, 0, shortCell.length))
        .hasMessageContaining("shorter than the smallest KeyValue");
    byte[] negative = {(byte) 0x80, 0, 0, 0};
    assertThatThrownBy(() -> CellBlockCodec.KEY_VALUE.decode(negative, 0, negative.length))
        .hasMessageContaining("cell length -2147483648");
  }

  @Test
  void unknownTypeCodeIsRefused() {
    byte[] block = CellBlockCodec.KEY_VALUE.encode(List.of(TestServices.cell("r", "q", 1, "v")));
    int typeAt = 4 + 8 + 2 + 1 + 1 + 1 + 1 + 8;
    block[typeAt] = 3;
    assertThatThrownBy(() -> CellBlockCodec.KEY_VALUE.decode(block, 0, block.length))
        .hasMessageContaining("type code 3 is unknown");
  }

  @Test
  void badTagStructureIsRefused() {
    KeyValue kv = TestServices.cell("r", "q", 1, "v");
    byte[] block =
        CellBlockCodec.KEY_VALUE_WITH_TAGS.encode(
            List.of(new TaggedCell(kv, new byte[] {0, 9, 1, 2}, 0, 4)));
    assertThatThrownBy(() -> CellBlockCodec.KEY_VALUE_WITH_TAGS.decode(block, 0, block.length))
        .hasMessageContaining("tag at tags offset 0 claims 9 bytes");
  }

  @Test
  void codecNamesAreHBases() {
    assertThat(CellBlockCodec.forClassName("org.apache.hadoop.hbase.codec.KeyValueCodec"))
        .isEqualTo(CellBlockCodec.KEY_VALUE);
    assertThat(CellBlockCodec.forClassName("org.apache.hadoop.hbase.codec.KeyValueCodecWithTags"))
        .isEqualTo(CellBlockCodec.KEY_VALUE_WITH_TAGS);
    assertThat(CellBlockCodec.forClassName("org.apache.hadoop.hbase.codec.CellCodec")).isNull();
  }

  @Property(tries = 200)
  void roundTrips(@ForAll("cellLists") List<Cell> cells, @ForAll boolean withTags)
      throws Exception {
    CellBlockCodec codec = withTags ? CellBlockCodec.KEY_VALUE_WITH_TAGS : CellBlockCodec.KEY_VALUE;
    byte[] block = codec.encode(cells);
    List<Cell> back = codec.decode(block, 0, block.length);
    List<Cell> expected = new ArrayList<>();
    for (Cell c : cells) {
      expected.add(withTags || !(c instanceof TaggedCell t) ? c : t.keyValue());
    }
    assertThat(back).isEqualTo(expected);
  }

  @Provide
  Arbitrary<List<Cell>> cellLists() {
    Arbitrary<byte[]> row = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(20);
    Arbitrary<byte[]> family = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(5);
    Arbitrary<byte[]> any = Arbitraries.bytes().array(byte[].class).ofMaxSize(30);
    Arbitrary<CellType> type =
        Arbitraries.of(
            CellType.PUT,
            CellType.DELETE,
            CellType.DELETE_COLUMN,
            CellType.DELETE_FAMILY,
            CellType.DELETE_FAMILY_VERSION);
    Arbitrary<byte[]> tags =
        Arbitraries.bytes()
            .array(byte[].class)
            .ofMinSize(1)
            .ofMaxSize(10)
            .map(v -> Bytes.concat(new byte[] {0, (byte) (v.length + 1), 7}, v))
            .injectNull(0.5);
    Arbitrary<Cell> cell =
        Combinators.combine(
                row, family, any, Arbitraries.longs().greaterOrEqual(0), type, any, tags)
            .as(
                (r, f, q, ts, t, v, tg) -> {
                  KeyValue kv = KeyValue.of(r, f, q, ts, t, v);
                  return tg == null ? kv : new TaggedCell(kv, tg, 0, tg.length);
                });
    return cell.list().ofMaxSize(8);
  }
}
