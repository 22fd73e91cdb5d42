package dev.basalt.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.filter.CompareOperator;
import dev.basalt.filter.Filter;
import org.junit.jupiter.api.Test;

class CheckAndMutateTest {
  private static final byte[] ROW = Bytes.toBytes("row");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final byte[] V = Bytes.toBytes("v");

  @Test
  void columnCondition() {
    Put put = new Put(ROW).addColumn(F, Q, V);
    CheckAndMutate cam =
        CheckAndMutate.newBuilder(ROW)
            .ifMatches(F, Q, CompareOperator.GREATER, V)
            .timeRange(TimeRange.between(1, 5))
            .build(put);
    assertThat(cam.getRow()).isEqualTo(ROW);
    assertThat(cam.getFamily()).isEqualTo(F);
    assertThat(cam.getQualifier()).isEqualTo(Q);
    assertThat(cam.getCompareOp()).isEqualTo(CompareOperator.GREATER);
    assertThat(cam.getValue()).isEqualTo(V);
    assertThat(cam.hasFilter()).isFalse();
    assertThat(cam.getFilter()).isNull();
    assertThat(cam.getTimeRange()).isEqualTo(TimeRange.between(1, 5));
    assertThat(cam.getAction()).isSameAs(put);
  }

  @Test
  void shorthandConditions() {
    CheckAndMutate notExists =
        CheckAndMutate.newBuilder(ROW).ifNotExists(F, null).build(new Delete(ROW));
    assertThat(notExists.getCompareOp()).isEqualTo(CompareOperator.EQUAL);
    assertThat(notExists.getValue()).isNull();
    assertThat(notExists.getQualifier()).isEmpty();
    assertThat(notExists.getTimeRange().isAllTime()).isTrue();

    CheckAndMutate eq =
        CheckAndMutate.newBuilder(ROW).ifEquals(F, Q, V).timeRange(null).build(new Append(ROW));
    assertThat(eq.getCompareOp()).isEqualTo(CompareOperator.EQUAL);
    assertThat(eq.getValue()).isEqualTo(V);
    assertThat(eq.getTimeRange().isAllTime()).isTrue();
  }

  @Test
  void filterCondition() {
    Filter f = new Filter() {};
    CheckAndMutate cam =
        CheckAndMutate.newBuilder(ROW).ifMatches(f).build(new Increment(ROW).addColumn(F, Q, 1));
    assertThat(cam.hasFilter()).isTrue();
    assertThat(cam.getFilter()).isSameAs(f);
    assertThat(cam.getFamily()).isNull();
  }

  @Test
  void everyActionTypeIsAccepted() {
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(ROW).ifNotExists(F, Q);
    assertThat(b.build(new Put(ROW)).getAction()).isInstanceOf(Put.class);
    assertThat(b.build(new Delete(ROW)).getAction()).isInstanceOf(Delete.class);
    assertThat(b.build(new Increment(ROW)).getAction()).isInstanceOf(Increment.class);
    assertThat(b.build(new Append(ROW)).getAction()).isInstanceOf(Append.class);
    assertThat(b.build(new RowMutations(ROW)).getAction()).isInstanceOf(RowMutations.class);
  }

  @Test
  void buildWithoutConditionFails() {
    assertThatThrownBy(() -> CheckAndMutate.newBuilder(ROW).build(new Put(ROW)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no condition");
  }

  @Test
  void actionOfAnotherRowFails() {
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(ROW).ifEquals(F, Q, V);
    assertThatThrownBy(() -> b.build(new Put(Bytes.toBytes("other"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other")
        .hasMessageContaining("does not match");
    assertThatThrownBy(() -> b.build(new RowMutations(Bytes.toBytes("rm"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rm");
  }

  @Test
  void filterAndColumnConditionAreExclusive() {
    Filter f = new Filter() {};
    assertThatThrownBy(() -> CheckAndMutate.newBuilder(ROW).ifMatches(f).ifEquals(F, Q, V))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("either a column condition or a filter");
    assertThatThrownBy(() -> CheckAndMutate.newBuilder(ROW).ifNotExists(F, Q).ifMatches(f))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("either a column condition or a filter");
  }

  @Test
  void nullPartsOfTheConditionFail() {
    assertThatThrownBy(
            () -> CheckAndMutate.newBuilder(ROW).ifMatches(F, Q, null, V).build(new Put(ROW)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("compare operator is null");
    assertThatThrownBy(() -> CheckAndMutate.newBuilder(ROW).ifEquals(null, Q, V))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column family is null");
    assertThatThrownBy(() -> CheckAndMutate.newBuilder(ROW).ifMatches((Filter) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("filter is null");
  }

  @Test
  void resultIsNullWhenTheActionReturnsNothing() {
    CheckAndMutateResult r = new CheckAndMutateResult(true, null);
    assertThat(r.isSuccess()).isTrue();
    assertThat(r.getResult()).isNull();
    assertThat(new CheckAndMutateResult(false, Result.ofExists(true)).isSuccess()).isFalse();
  }
}
