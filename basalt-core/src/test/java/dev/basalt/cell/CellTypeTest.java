package dev.basalt.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CellTypeTest {

  @Test
  void codesAreHBases() {
    assertThat(CellType.MINIMUM.code()).isEqualTo((byte) 0);
    assertThat(CellType.PUT.code()).isEqualTo((byte) 4);
    assertThat(CellType.DELETE.code()).isEqualTo((byte) 8);
    assertThat(CellType.DELETE_FAMILY_VERSION.code()).isEqualTo((byte) 10);
    assertThat(CellType.DELETE_COLUMN.code()).isEqualTo((byte) 12);
    assertThat(CellType.DELETE_FAMILY.code()).isEqualTo((byte) 14);
    assertThat(CellType.MAXIMUM.code()).isEqualTo((byte) 255);
    assertThat(CellType.values()).hasSize(7);
  }

  @Test
  void fromCodeRoundTripsEveryType() {
    for (CellType t : CellType.values()) {
      assertThat(CellType.fromCode(t.code())).isSameAs(t);
    }
  }

  @Test
  void unknownCodesAreRejectedNamingTheCode() {
    for (int code = 0; code < 256; code++) {
      byte c = (byte) code;
      boolean known = code == 0 || code == 4 || code == 8 || code == 10 || code == 12;
      known |= code == 14 || code == 255;
      if (!known) {
        assertThatThrownBy(() -> CellType.fromCode(c))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(String.valueOf(code));
      }
    }
  }

  @Test
  void onlyTheFourMarkerTypesAreDeletes() {
    Set<CellType> deletes =
        EnumSet.of(
            CellType.DELETE,
            CellType.DELETE_FAMILY_VERSION,
            CellType.DELETE_COLUMN,
            CellType.DELETE_FAMILY);
    for (CellType t : CellType.values()) {
      assertThat(t.isDelete()).as(t.name()).isEqualTo(deletes.contains(t));
      assertThat(CellType.isDelete(t.code())).as(t.name()).isEqualTo(deletes.contains(t));
    }
  }

  @Test
  void cellExposesItsType() {
    KeyValue kv =
        KeyValue.of(
            Bytes.toBytes("r"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            1,
            CellType.DELETE_COLUMN,
            Bytes.EMPTY);
    assertThat(kv.getType()).isEqualTo(CellType.DELETE_COLUMN);
    assertThat(kv.isDelete()).isTrue();
    assertThat(new DelegatingCell(kv).getType()).isEqualTo(CellType.DELETE_COLUMN);
  }
}
