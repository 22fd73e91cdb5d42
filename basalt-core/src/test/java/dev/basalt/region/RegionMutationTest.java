package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.G;
import static dev.basalt.region.TestRegions.b;
import static dev.basalt.region.TestRegions.cells;
import static dev.basalt.region.TestRegions.region;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.filter.CompareOperator;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.RowMutations;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Read-modify-write operations, conditions, row mutations and batches. */
class RegionMutationTest {
  private static final byte[] ROW = b("r");
  private static final byte[] Q = b("q");
  private final ManualClock clock = new ManualClock(1_000);
  private final Region r = region(clock, f -> f.setMaxVersions(3));

  @Test
  void incrementStartsFromZeroAndReturnsNewValues() throws IOException {
    Result res = r.increment(new Increment(ROW).addColumn(F, Q, 5).addColumn(G, Q, -2));
    assertThat(Bytes.toLong(res.getValue(F, Q))).isEqualTo(5);
    assertThat(Bytes.toLong(res.getValue(G, Q))).isEqualTo(-2);
    res = r.increment(new Increment(ROW).addColumn(F, Q, 7));
    assertThat(Bytes.toLong(res.getValue(F, Q))).isEqualTo(12);
    assertThat(Bytes.toLong(r.get(new Get(ROW)).getValue(F, Q))).isEqualTo(12);
  }

  @Test
  void incrementTimestampNeverGoesBackwards() throws IOException {
    r.put(new Put(ROW).addColumn(F, Q, 5_000, Bytes.toBytes(1L))); // in the clock's future
    Result res = r.increment(new Increment(ROW).addColumn(F, Q, 1));
    assertThat(res.getColumnLatestCell(F, Q).getTimestamp()).isEqualTo(5_001);
    assertThat(Bytes.toLong(r.get(new Get(ROW)).getValue(F, Q))).isEqualTo(2);
  }

  @Test
  void incrementCanDeclineItsResult() throws IOException {
    Result res = r.increment(new Increment(ROW).addColumn(F, Q, 1).setReturnResults(false));
    assertThat(res.isEmpty()).isTrue();
    assertThat(Bytes.toLong(r.get(new Get(ROW)).getValue(F, Q))).isEqualTo(1);
  }

  @Test
  void appendConcatenates() throws IOException {
    r.append(new Append(ROW).addColumn(F, Q, b("ab")));
    Result res = r.append(new Append(ROW).addColumn(F, Q, b("cd")));
    assertThat(res.getValue(F, Q)).isEqualTo(b("abcd"));
  }

  @Test
  void checkAndMutateComparesGivenAgainstStoredAsHBaseDoes() throws IOException {
    r.put(new Put(ROW).addColumn(F, Q, b("m")));
    Put p = new Put(ROW).addColumn(F, b("hit"), b("1"));
    // given "a" < stored "m": LESS passes (HBase's operand order)
    assertThat(cam(CompareOperator.LESS, b("a"), p).isSuccess()).isTrue();
    assertThat(cam(CompareOperator.GREATER, b("a"), p).isSuccess()).isFalse();
    assertThat(cam(CompareOperator.EQUAL, b("m"), p).isSuccess()).isTrue();
    assertThat(cam(CompareOperator.NOT_EQUAL, b("m"), p).isSuccess()).isFalse();
    assertThat(cam(CompareOperator.GREATER_OR_EQUAL, b("m"), p).isSuccess()).isTrue();
    assertThat(cam(CompareOperator.LESS_OR_EQUAL, b("z"), p).isSuccess()).isFalse();
  }

  @Test
  void absenceConditions() throws IOException {
    Put p = new Put(ROW).addColumn(F, Q, b("first"));
    CheckAndMutate ifAbsent = CheckAndMutate.newBuilder(ROW).ifNotExists(F, Q).build(p);
    assertThat(r.checkAndMutate(ifAbsent).isSuccess()).isTrue();
    assertThat(r.checkAndMutate(ifAbsent).isSuccess()).isFalse();
    assertThat(cam(CompareOperator.NOT_EQUAL, null, p).isSuccess()).isTrue();
    assertThat(r.get(new Get(ROW)).getValue(F, Q)).isEqualTo(b("first"));
  }

  @Test
  void failedConditionWritesNothingAndReturnsIncrementResults() throws IOException {
    CheckAndMutateResult miss =
        r.checkAndMutate(
            CheckAndMutate.newBuilder(ROW)
                .ifEquals(F, Q, b("x"))
                .build(new Increment(ROW).addColumn(F, b("n"), 1)));
    assertThat(miss.isSuccess()).isFalse();
    assertThat(r.get(new Get(ROW)).isEmpty()).isTrue();
    CheckAndMutateResult hit =
        r.checkAndMutate(
            CheckAndMutate.newBuilder(ROW)
                .ifNotExists(F, Q)
                .build(new Increment(ROW).addColumn(F, b("n"), 3)));
    assertThat(hit.isSuccess()).isTrue();
    assertThat(Bytes.toLong(hit.getResult().getValue(F, b("n")))).isEqualTo(3);
  }

  @Test
  void checkedPutIsNeverOlderThanTheCheckedCell() throws IOException {
    r.put(new Put(ROW).addColumn(F, Q, 9_999, b("future")));
    assertThat(
            cam(CompareOperator.EQUAL, b("future"), new Put(ROW).addColumn(F, Q, b("next")))
                .isSuccess())
        .isTrue();
    assertThat(cells(r.get(new Get(ROW)))).containsExactly("r/f:q@9999=next");
  }

  private CheckAndMutateResult cam(CompareOperator op, byte[] value, Put action)
      throws IOException {
    return r.checkAndMutate(
        CheckAndMutate.newBuilder(ROW).ifMatches(F, Q, op, value).build(action));
  }

  @Test
  void rowMutationsApplyInOrder() throws IOException {
    r.put(new Put(ROW).addColumn(F, Q, 5, b("old")));
    RowMutations rm =
        new RowMutations(ROW)
            .add(new Delete(ROW).addColumns(F, Q, 10))
            .add(new Put(ROW).addColumn(F, Q, 5, b("new")));
    r.mutateRow(rm);
    assertThat(cells(r.get(new Get(ROW).readAllVersions()))).containsExactly("r/f:q@5=new");

    r.mutateRow(
        new RowMutations(ROW)
            .add(new Put(ROW).addColumn(F, b("other"), 5, b("gone")))
            .add(new Delete(ROW).addColumns(F, b("other"), 10)));
    assertThat(r.get(new Get(ROW).addColumn(F, b("other"))).isEmpty()).isTrue();
  }

  @Test
  void deleteLatestInsideRowMutationsSeesEarlierParts() throws IOException {
    r.put(new Put(ROW).addColumn(F, Q, 1, b("v1")));
    r.mutateRow(
        new RowMutations(ROW)
            .add(new Put(ROW).addColumn(F, Q, 2, b("v2")))
            .add(new Delete(ROW).addColumn(F, Q)));
    assertThat(cells(r.get(new Get(ROW).readAllVersions()))).containsExactly("r/f:q@1=v1");
  }

  @Test
  void rowMutationsWithIncrementsAndAppendsReturnTheirCellsTogether() throws IOException {
    // HBase 2.4+ takes increments and appends in a RowMutations (Table.mutateRow returns them).
    r.put(new Put(ROW).addColumn(F, b("s"), b("ab")));
    Result res =
        r.mutateRow(
            new RowMutations(ROW)
                .add(new Put(ROW).addColumn(F, Q, Bytes.toBytes(10L)))
                .add(new Increment(ROW).addColumn(F, Q, 5))
                .add(new Append(ROW).addColumn(F, b("s"), b("cd")))
                .add(new Increment(ROW).addColumn(G, Q, 1).setReturnResults(false)));
    // the increment saw the Put before it; its cell and the append's come back in cell order
    assertThat(res.size()).isEqualTo(2);
    assertThat(Bytes.toLong(res.getValue(F, Q))).isEqualTo(15);
    assertThat(res.getValue(F, b("s"))).isEqualTo(b("abcd"));
    Result row = r.get(new Get(ROW));
    assertThat(Bytes.toLong(row.getValue(F, Q))).isEqualTo(15);
    assertThat(Bytes.toLong(row.getValue(G, Q))).isEqualTo(1);
    assertThat(r.mutateRow(new RowMutations(ROW).add(new Delete(ROW).addFamily(G))).isEmpty())
        .isTrue();

    // a failing part (not a counter) writes nothing of the row mutation
    assertThatThrownBy(
            () ->
                r.mutateRow(
                    new RowMutations(ROW)
                        .add(new Put(ROW).addColumn(F, b("x"), b("1")))
                        .add(new Increment(ROW).addColumn(F, b("s"), 1))))
        .isInstanceOf(InvalidMutationException.class);
    assertThat(r.get(new Get(ROW).addColumn(F, b("x"))).isEmpty()).isTrue();
  }

  @Test
  void batchReportsEachOperationSeparately() throws IOException {
    r.put(new Put(b("s")).addColumn(F, Q, b("not a long")));
    List<OperationStatus> st =
        r.batchMutate(
            List.of(
                new Put(b("p")).addColumn(F, Q, b("v")),
                new Increment(b("s")).addColumn(F, Q, 1),
                new Put(b("p2")).addColumn(b("nope"), Q, b("v")),
                new Increment(b("c")).addColumn(F, Q, 4)));
    assertThat(st.get(0).isSuccess()).isTrue();
    assertThat(st.get(1).getException()).isInstanceOf(InvalidMutationException.class);
    assertThat(st.get(2).getException()).isInstanceOf(NoSuchColumnFamilyException.class);
    assertThat(Bytes.toLong(st.get(3).getResult().getValue(F, Q))).isEqualTo(4);
    assertThat(r.get(new Get(b("p"))).isEmpty()).isFalse();
    assertThat(r.get(new Get(b("p2"))).isEmpty()).isTrue();
  }

  @Test
  void batchWithTheSameRowTwiceAppliesBothInOrder() throws IOException {
    List<OperationStatus> st =
        r.batchMutate(
            List.of(new Increment(ROW).addColumn(F, Q, 1), new Increment(ROW).addColumn(F, Q, 10)));
    assertThat(Bytes.toLong(st.get(1).getResult().getValue(F, Q))).isEqualTo(11);
  }
}
