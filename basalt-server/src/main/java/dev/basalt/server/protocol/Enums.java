package dev.basalt.server.protocol;

import dev.basalt.filter.CompareOperator;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/** The protocol's enums that map one to one onto basalt-core's. */
final class Enums {
  private Enums() {}

  static CompareOperator operator(HBaseProtos.CompareType t) {
    return switch (t) {
      case LESS -> CompareOperator.LESS;
      case LESS_OR_EQUAL -> CompareOperator.LESS_OR_EQUAL;
      case EQUAL -> CompareOperator.EQUAL;
      case NOT_EQUAL -> CompareOperator.NOT_EQUAL;
      case GREATER_OR_EQUAL -> CompareOperator.GREATER_OR_EQUAL;
      case GREATER -> CompareOperator.GREATER;
      case NO_OP -> CompareOperator.NO_OP;
    };
  }
}
