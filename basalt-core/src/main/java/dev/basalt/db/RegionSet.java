package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import java.util.ArrayList;
import java.util.List;

/**
 * What a table is made of, as persisted in its {@code .regionset} file (docs/formats/catalog.md):
 * whether it is enabled, and its regions, sorted by start key and covering every row exactly once.
 * Each region carries a <em>sequence floor</em>: its edits up to that sequence id are all in its
 * store files, or belong to a family that no longer exists, so replaying the WAL skips them, and
 * the region's new edits get higher ids.
 *
 * <p>The file is replaced whole (temporary name, sync, rename), so switching a table from one set
 * of regions to another, or enabling and disabling it, is one atomic step. Immutable.
 */
final class RegionSet {
  /** Whether the table serves reads and writes. */
  enum State {
    ENABLED,
    DISABLED
  }

  /** One region of the set. */
  record Member(RegionInfo info, long sequenceFloor) {}

  private final TableName table;
  private final State state;
  private final List<Member> members;

  private RegionSet(TableName table, State state, List<Member> members) {
    this.table = table;
    this.state = state;
    this.members = List.copyOf(members);
  }

  /**
   * @throws IllegalArgumentException when the regions do not cover every row exactly once, in
   *     order, or belong to another table
   */
  static RegionSet of(TableName table, State state, List<Member> members) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("table " + table + " has no regions");
    }
    byte[] expectedStart = Bytes.EMPTY;
    for (int i = 0; i < members.size(); i++) {
      RegionInfo r = members.get(i).info();
      if (!r.getTable().equals(table)) {
        throw new IllegalArgumentException(
            "region " + r.getEncodedName() + " belongs to " + r.getTable() + ", not " + table);
      }
      if (!Bytes.equals(r.getStartKey(), expectedStart)) {
        throw new IllegalArgumentException(
            "region "
                + (i + 1)
                + " of "
                + table
                + " starts at '"
                + Bytes.toStringBinary(r.getStartKey())
                + "' but the previous region ends at '"
                + Bytes.toStringBinary(expectedStart)
                + "'");
      }
      expectedStart = r.getEndKey();
      if (expectedStart.length == 0 && i < members.size() - 1) {
        throw new IllegalArgumentException(
            "region " + (i + 1) + " of " + table + " ends the key space but is not the last");
      }
    }
    if (expectedStart.length != 0) {
      throw new IllegalArgumentException(
          "the last region of "
              + table
              + " ends at '"
              + Bytes.toStringBinary(expectedStart)
              + "' instead of covering the rest of the key space");
    }
    return new RegionSet(table, state, members);
  }

  TableName table() {
    return table;
  }

  State state() {
    return state;
  }

  boolean isEnabled() {
    return state == State.ENABLED;
  }

  /** The regions, by start key. */
  List<Member> members() {
    return members;
  }

  List<RegionInfo> regions() {
    List<RegionInfo> out = new ArrayList<>(members.size());
    for (Member m : members) {
      out.add(m.info());
    }
    return out;
  }

  /** The member with this encoded name, or null. */
  Member member(String encodedName) {
    for (Member m : members) {
      if (m.info().getEncodedName().equals(encodedName)) {
        return m;
      }
    }
    return null;
  }

  RegionSet withState(State s) {
    return new RegionSet(table, s, members);
  }

  RegionSet withMembers(List<Member> m) {
    return of(table, state, m);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RegionSet
        && ((RegionSet) o).table.equals(table)
        && ((RegionSet) o).state == state
        && ((RegionSet) o).members.equals(members);
  }

  @Override
  public int hashCode() {
    return table.hashCode() * 31 + members.hashCode();
  }

  @Override
  public String toString() {
    return "RegionSet(" + table + ", " + state + ", " + members.size() + " regions)";
  }
}
