package dev.basalt.server.protocol;

import dev.basalt.cell.Bytes;
import dev.basalt.filter.BigDecimalComparator;
import dev.basalt.filter.BinaryComparator;
import dev.basalt.filter.BinaryComponentComparator;
import dev.basalt.filter.BinaryPrefixComparator;
import dev.basalt.filter.BitComparator;
import dev.basalt.filter.ByteArrayComparable;
import dev.basalt.filter.LongComparator;
import dev.basalt.filter.NullComparator;
import dev.basalt.filter.RegexStringComparator;
import dev.basalt.filter.SubstringComparator;
import dev.basalt.util.BasaltIOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ComparatorProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * Turns a comparator as HBase's client sends it ({@code Comparator{name = the HBase class name,
 * serialized_comparator = its message from Comparator.proto}}) into basalt-core's comparator.
 * Errors are {@code DoNotRetryIOException}s naming the comparator, as in {@link FilterDecoder}.
 * Stateless.
 */
public final class ComparatorDecoder {
  private static final String PACKAGE = "org.apache.hadoop.hbase.filter.";

  private ComparatorDecoder() {}

  public static ByteArrayComparable decode(ComparatorProtos.Comparator proto)
      throws BasaltIOException {
    String name = proto.getName();
    ByteString b = proto.getSerializedComparator();
    try {
      switch (name.startsWith(PACKAGE) ? name.substring(PACKAGE.length()) : "") {
        case "BinaryComparator":
          return new BinaryComparator(
              value(ComparatorProtos.BinaryComparator.parseFrom(b).getComparable()));
        case "BinaryPrefixComparator":
          return new BinaryPrefixComparator(
              value(ComparatorProtos.BinaryPrefixComparator.parseFrom(b).getComparable()));
        case "BinaryComponentComparator":
          {
            ComparatorProtos.BinaryComponentComparator p =
                ComparatorProtos.BinaryComponentComparator.parseFrom(b);
            return new BinaryComponentComparator(p.getValue().toByteArray(), p.getOffset());
          }
        case "BitComparator":
          {
            ComparatorProtos.BitComparator p = ComparatorProtos.BitComparator.parseFrom(b);
            return new BitComparator(value(p.getComparable()), bitwiseOp(p.getBitwiseOp()));
          }
        case "LongComparator":
          return new LongComparator(
              Bytes.toLong(required(ComparatorProtos.LongComparator.parseFrom(b).getComparable())));
        case "BigDecimalComparator":
          return new BigDecimalComparator(
              Bytes.toBigDecimal(
                  required(ComparatorProtos.BigDecimalComparator.parseFrom(b).getComparable())));
        case "NullComparator":
          ComparatorProtos.NullComparator.parseFrom(b);
          return new NullComparator();
        case "RegexStringComparator":
          return regex(ComparatorProtos.RegexStringComparator.parseFrom(b));
        case "SubstringComparator":
          return new SubstringComparator(
              ComparatorProtos.SubstringComparator.parseFrom(b).getSubstr());
        default:
          throw BasaltIOException.doNotRetry(
              "unknown comparator class "
                  + name
                  + " (Basalt implements HBase's comparators in "
                  + PACKAGE
                  + "*; custom comparator classes cannot be loaded)");
      }
    } catch (InvalidProtocolBufferException e) {
      throw BasaltIOException.doNotRetry(
          "the bytes sent for comparator " + name + " are not its message: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry("comparator " + name + ": " + e.getMessage());
    }
  }

  /**
   * {@code ByteArrayComparable.value}; absent means an empty operand, as HBase's server reads it.
   * The client leaves the value out for a null operand, as in {@code CheckAndMutate.ifNotExists},
   * whose {@code BinaryComparator(null)} a check-and-mutate then treats as "no value".
   */
  private static byte[] value(ComparatorProtos.ByteArrayComparable c) {
    return c.getValue().toByteArray();
  }

  private static byte[] required(ComparatorProtos.ByteArrayComparable c) {
    if (!c.hasValue()) {
      throw new IllegalArgumentException("the value to compare with is missing");
    }
    return c.getValue().toByteArray();
  }

  private static BitComparator.BitwiseOp bitwiseOp(ComparatorProtos.BitComparator.BitwiseOp op) {
    switch (op) {
      case AND:
        return BitComparator.BitwiseOp.AND;
      case OR:
        return BitComparator.BitwiseOp.OR;
      case XOR:
        return BitComparator.BitwiseOp.XOR;
      default:
        throw new IllegalArgumentException("unknown bitwise operator " + op);
    }
  }

  private static ByteArrayComparable regex(ComparatorProtos.RegexStringComparator p) {
    RegexStringComparator.EngineType engine = RegexStringComparator.EngineType.JAVA;
    if (p.hasEngine() && !p.getEngine().isEmpty()) {
      try {
        engine = RegexStringComparator.EngineType.valueOf(p.getEngine());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "unknown regular expression engine '" + p.getEngine() + "' (JAVA or JONI)");
      }
    }
    RegexStringComparator c =
        new RegexStringComparator(p.getPattern(), p.getPatternFlags(), engine);
    if (p.hasCharset() && !p.getCharset().isEmpty()) {
      try {
        c.setCharset(Charset.forName(p.getCharset()));
      } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
        throw new IllegalArgumentException("unknown charset '" + p.getCharset() + "'");
      }
    }
    return c;
  }
}
