package dev.basalt.server.protocol;

import dev.basalt.filter.BinaryComparator;
import dev.basalt.filter.ByteArrayComparable;
import dev.basalt.filter.NullComparator;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Row;
import dev.basalt.ops.RowMutations;
import dev.basalt.ops.TimeRange;
import dev.basalt.util.BasaltIOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;

/**
 * Turns HBase's check-and-mutate {@code Condition} and its action into a {@link CheckAndMutate}.
 * The condition is either a filter (the row must let some cell through) or a comparison of one
 * column's newest value in the time range, in HBase's operand order (LESS passes when the sent
 * value is less than the stored one). The 2.6 client always compares with a {@code
 * BinaryComparator}; a {@code NullComparator} tests for absence; other comparators are refused with
 * an error naming them. Stateless.
 */
public final class ConditionDecoder {
  private ConditionDecoder() {}

  public static CheckAndMutate toCheckAndMutate(ClientProtos.Condition c, Row action)
      throws BasaltIOException {
    try {
      CheckAndMutate.Builder b = CheckAndMutate.newBuilder(c.getRow().toByteArray());
      if (c.hasFilter()) {
        b.ifMatches(FilterDecoder.decode(c.getFilter()));
      } else {
        byte[] family = c.getFamily().toByteArray();
        byte[] qualifier = c.getQualifier().toByteArray();
        ByteArrayComparable cmp =
            c.hasComparator() ? ComparatorDecoder.decode(c.getComparator()) : null;
        if (cmp == null || cmp instanceof NullComparator) {
          b.ifMatches(family, qualifier, Enums.operator(c.getCompareType()), null);
        } else if (cmp.getClass() == BinaryComparator.class) {
          b.ifMatches(family, qualifier, Enums.operator(c.getCompareType()), cmp.getValue());
        } else {
          throw BasaltIOException.doNotRetry(
              "check-and-mutate compares a column with a BinaryComparator only, not "
                  + cmp.getClass().getSimpleName()
                  + "; use the filter form of the condition instead");
        }
      }
      if (c.hasTimeRange()) {
        b.timeRange(
            TimeRange.between(
                QueryDecoder.from(c.getTimeRange()), QueryDecoder.to(c.getTimeRange())));
      }
      if (action instanceof Put p) {
        return b.build(p);
      } else if (action instanceof Delete d) {
        return b.build(d);
      } else if (action instanceof Increment i) {
        return b.build(i);
      } else if (action instanceof Append a) {
        return b.build(a);
      } else if (action instanceof RowMutations rm) {
        return b.build(rm);
      }
      throw BasaltIOException.doNotRetry(
          "a check-and-mutate cannot apply a " + action.getClass().getSimpleName());
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw BasaltIOException.doNotRetry("bad check-and-mutate: " + e.getMessage());
    }
  }
}
