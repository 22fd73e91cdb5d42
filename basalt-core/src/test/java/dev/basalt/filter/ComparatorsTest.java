package dev.basalt.filter;

import static dev.basalt.filter.Fixture.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ComparatorsTest {

  @Test
  void binaryComparesWholeValuesUnsignedAndHonoursOffsets() {
    BinaryComparator c = new BinaryComparator(b("b"));
    assertThat(c.compareTo(b("b"))).isZero();
    assertThat(c.compareTo(b("a"))).isPositive();
    assertThat(c.compareTo(b("ba"))).isNegative();
    assertThat(c.compareTo(b("xbx"), 1, 1)).isZero();
    // 0xFF sorts after 'b' (unsigned).
    assertThat(c.compareTo(new byte[] {(byte) 0xFF})).isNegative();
    assertThat(c.getValue()).isEqualTo(b("b"));
  }

  @Test
  void binaryPrefixComparesOnlyTheValuesLength() {
    BinaryPrefixComparator c = new BinaryPrefixComparator(b("ab"));
    assertThat(c.compareTo(b("abc"))).isZero();
    assertThat(c.compareTo(b("ab"))).isZero();
    assertThat(c.compareTo(b("a"))).isPositive();
    assertThat(c.compareTo(b("b"))).isNegative();
    assertThat(c.compareTo(b("aa\u00ff"))).isPositive();
    assertThat(new BinaryPrefixComparator(new byte[0]).compareTo(b("anything"))).isZero();
  }

  @Test
  void binaryComponentComparesOneSliceAndTreatsAMissingSliceAsSmaller() {
    BinaryComponentComparator c = new BinaryComponentComparator(b("cd"), 2);
    assertThat(c.getOffset()).isEqualTo(2);
    assertThat(c.compareTo(b("abcdef"))).isZero();
    assertThat(c.compareTo(b("abcc"))).isPositive();
    assertThat(c.compareTo(b("abce"))).isNegative();
    assertThat(c.compareTo(b("zzcdzz"), 0, 6)).isZero();
    assertThat(c.compareTo(b("..abcd"), 2, 4)).isZero();
    assertThat(c.compareTo(b("abc"))).isPositive();
    assertThat(c.compareTo(b("a"))).isPositive();
  }

  @Test
  void bitComparatorMatchesWhenTheCombinationHasASetBit() {
    byte[] mask = {0x0F, 0x00};
    BitComparator and = new BitComparator(mask, BitComparator.BitwiseOp.AND);
    assertThat(and.compareTo(new byte[] {0x01, 0x00})).isZero();
    assertThat(and.compareTo(new byte[] {(byte) 0xF0, (byte) 0xFF})).isEqualTo(1);
    assertThat(and.compareTo(new byte[] {0x01})).as("other width").isEqualTo(1);
    BitComparator or = new BitComparator(new byte[] {0x00}, BitComparator.BitwiseOp.OR);
    assertThat(or.compareTo(new byte[] {0x00})).isEqualTo(1);
    assertThat(or.compareTo(new byte[] {(byte) 0x80})).isZero();
    BitComparator xor = new BitComparator(new byte[] {0x55}, BitComparator.BitwiseOp.XOR);
    assertThat(xor.compareTo(new byte[] {0x55})).isEqualTo(1);
    assertThat(xor.compareTo(new byte[] {0x54})).isZero();
    assertThat(xor.compareTo(new byte[] {9, 0x54, 9}, 1, 1)).isZero();
    assertThat(xor.getOperator()).isEqualTo(BitComparator.BitwiseOp.XOR);
  }

  @Test
  void nullComparatorMatchesOnlyNull() {
    NullComparator c = new NullComparator();
    assertThat(c.compareTo((byte[]) null)).isZero();
    assertThat(c.compareTo(new byte[0])).isEqualTo(1);
    assertThat(c.compareTo(b("x"), 0, 1)).isEqualTo(1);
  }

  @Test
  void regexSearchesWithDotallByDefault() {
    RegexStringComparator c = new RegexStringComparator("a.b");
    assertThat(c.compareTo(b("xxa\nbxx"))).as("find, DOTALL").isZero();
    assertThat(c.compareTo(b("ab"))).isEqualTo(1);
    assertThat(c.getFlags()).isEqualTo(Pattern.DOTALL);
    assertThat(c.getPattern()).isEqualTo("a.b");
    assertThat(c.getValue()).isEqualTo(b("a.b"));
    assertThat(c.getEngineType()).isEqualTo(RegexStringComparator.EngineType.JAVA);
    assertThat(c.getCharset()).isEqualTo(StandardCharsets.UTF_8);
  }

  @Test
  void explicitFlagsReplaceTheDefault() {
    RegexStringComparator plain = new RegexStringComparator("a.b", 0);
    assertThat(plain.compareTo(b("a\nb"))).isEqualTo(1);
    RegexStringComparator ci = new RegexStringComparator("^ABC$", Pattern.CASE_INSENSITIVE);
    assertThat(ci.compareTo(b("abc"))).isZero();
    assertThat(ci.compareTo(b("xabc"))).isEqualTo(1);
  }

  @Test
  void charsetDecidesHowBytesBecomeCharacters() {
    byte[] latin1E = {(byte) 0xE9}; // 'é' in ISO-8859-1, invalid alone in UTF-8
    RegexStringComparator c = new RegexStringComparator("^\u00e9$");
    assertThat(c.compareTo(latin1E)).isEqualTo(1);
    assertThat(c.compareTo("\u00e9".getBytes(StandardCharsets.UTF_8))).isZero();
    c.setCharset(StandardCharsets.ISO_8859_1);
    assertThat(c.compareTo(latin1E)).isZero();
    assertThat(c.getCharset()).isEqualTo(StandardCharsets.ISO_8859_1);
  }

  @Test
  void regexRejectsBadInputClearly() {
    assertThatThrownBy(() -> new RegexStringComparator("a(b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid regular expression 'a(b'");
    assertThatThrownBy(() -> new RegexStringComparator("a", 1 << 20))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("flags");
    assertThatThrownBy(() -> new RegexStringComparator("a", RegexStringComparator.EngineType.JONI))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("JONI");
    assertThatThrownBy(() -> new RegexStringComparator(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void substringIgnoresCase() {
    SubstringComparator c = new SubstringComparator("HeLLo");
    assertThat(c.getValue()).isEqualTo(b("hello"));
    assertThat(c.compareTo(b("say HELLO world"))).isZero();
    assertThat(c.compareTo(b("say hell"))).isEqualTo(1);
    assertThat(new SubstringComparator("").compareTo(b("x"))).isZero();
  }

  @Test
  void longComparatorReadsEightByteLongsAndRejectsOtherWidths() {
    LongComparator c = new LongComparator(10);
    assertThat(c.compareTo(Bytes.toBytes(10L))).isZero();
    assertThat(c.compareTo(Bytes.toBytes(-5L))).isPositive();
    assertThat(c.compareTo(Bytes.toBytes(11L))).isNegative();
    assertThat(c.getValue()).isEqualTo(Bytes.toBytes(10L));
    assertThatThrownBy(() -> c.compareTo(Bytes.toBytes(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("4 bytes");
  }

  @Test
  void nullValuesAndBadArgumentsAreRejected() {
    assertThatThrownBy(() -> new BinaryComparator(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BinaryComparator");
    assertThatThrownBy(() -> new BinaryPrefixComparator(null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new BinaryComponentComparator(b("a"), -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("offset");
    assertThatThrownBy(() -> new BitComparator(b("a"), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("operator");
    assertThatThrownBy(() -> new SubstringComparator(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void equalityFollowsTheParameters() {
    assertThat(new BinaryComparator(b("a"))).isEqualTo(new BinaryComparator(b("a")));
    assertThat(new BinaryComparator(b("a"))).isNotEqualTo(new BinaryPrefixComparator(b("a")));
    assertThat(new BinaryComponentComparator(b("a"), 1))
        .isNotEqualTo(new BinaryComponentComparator(b("a"), 2));
    assertThat(new RegexStringComparator("a", 0)).isNotEqualTo(new RegexStringComparator("a"));
  }
}
