package dev.basalt.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowMutationsTest {
  private static final byte[] ROW = Bytes.toBytes("row");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @Test
  void keepsPutsAndDeletesInOrder() {
    Put put = new Put(ROW).addColumn(F, Q, Bytes.toBytes("v"));
    Delete del = new Delete(ROW).addColumns(F, Q);
    Put put2 = new Put(ROW).addColumn(F, Q, Bytes.toBytes("w"));
    RowMutations rm = new RowMutations(ROW).add(put).add(del).add(put2);
    assertThat(rm.getRow()).isEqualTo(ROW);
    assertThat(rm.getMutations()).containsExactly(put, del, put2);
    assertThatThrownBy(() -> rm.getMutations().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void rejectsMutationsOfOtherRows() {
    RowMutations rm = new RowMutations(ROW);
    assertThatThrownBy(() -> rm.add(new Put(Bytes.toBytes("other"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Put")
        .hasMessageContaining("other")
        .hasMessageContaining("does not match");
    assertThatThrownBy(() -> rm.add(new Delete(Bytes.toBytes("row2"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row2");
    assertThat(rm.getMutations()).isEmpty();
  }

  @Test
  void takesIncrementsAndAppendsAsHBaseDoes() {
    Increment inc = new Increment(ROW).addColumn(F, Q, 1);
    Append app = new Append(ROW).addColumn(F, Q, Bytes.toBytes("x"));
    RowMutations rm = new RowMutations(ROW).add(inc).add(app);
    assertThat(rm.getMutations()).containsExactly(inc, app);
    assertThatThrownBy(() -> rm.add(new Increment(Bytes.toBytes("other"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not match");
  }

  @Test
  void ofTakesTheRowOfTheFirstMutation() {
    Put put = new Put(ROW);
    Delete del = new Delete(ROW);
    RowMutations rm = RowMutations.of(List.of(put, del));
    assertThat(rm.getRow()).isEqualTo(ROW);
    assertThat(rm.getMutations()).containsExactly(put, del);
    assertThatThrownBy(() -> RowMutations.of(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one");
    assertThatThrownBy(() -> RowMutations.of(List.of(put, new Put(Bytes.toBytes("x")))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not match");
  }
}
