package dev.basalt.ops;

import dev.basalt.cell.Bytes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Puts, deletes, increments and appends of one row applied atomically, in the order added: readers
 * see all of them or none. Each later mutation sees the effect of the earlier ones (a Put after a
 * Delete of the same column survives it; an Increment after a Put of its column adds to that
 * value). As in HBase 2.4+, the cells the increments and appends return come back together as one
 * result.
 */
public class RowMutations implements Row {
  private final byte[] row;
  private final List<Mutation> mutations = new ArrayList<>();

  public RowMutations(byte[] row) {
    this.row = Mutation.checkRow(row);
  }

  public static RowMutations of(List<? extends Mutation> mutations) {
    if (mutations.isEmpty()) {
      throw new IllegalArgumentException("RowMutations needs at least one mutation");
    }
    RowMutations rm = new RowMutations(mutations.get(0).getRow());
    mutations.forEach(rm::add);
    return rm;
  }

  /**
   * @throws IllegalArgumentException for another row, or a mutation that is not a Put, Delete,
   *     Increment or Append
   */
  public RowMutations add(Mutation m) {
    if (!(m instanceof Put)
        && !(m instanceof Delete)
        && !(m instanceof Increment)
        && !(m instanceof Append)) {
      throw new IllegalArgumentException(
          "RowMutations takes Put, Delete, Increment and Append only, not "
              + m.getClass().getSimpleName());
    }
    if (!Bytes.equals(m.getRow(), row)) {
      throw new IllegalArgumentException(
          "the row of "
              + m.getClass().getSimpleName()
              + " ("
              + Bytes.toStringBinary(m.getRow())
              + ") does not match RowMutations row "
              + Bytes.toStringBinary(row));
    }
    mutations.add(m);
    return this;
  }

  @Override
  public byte[] getRow() {
    return row;
  }

  public List<Mutation> getMutations() {
    return Collections.unmodifiableList(mutations);
  }

  @Override
  public String toString() {
    return "RowMutations{row=" + Bytes.toStringBinary(row) + ", " + mutations + "}";
  }
}
