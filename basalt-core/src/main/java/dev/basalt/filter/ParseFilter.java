package dev.basalt.filter;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;

/**
 * Parses HBase's filter language (the {@code FILTER => "..."} strings of the shell and the filter
 * strings of Thrift) into the filters of this package, for example
 *
 * <pre>{@code
 * PrefixFilter('user1') AND ColumnPrefixFilter('a') OR ValueFilter(=, 'binary:x')
 * }</pre>
 *
 * which is {@code OR(AND(PrefixFilter, ColumnPrefixFilter), ValueFilter)} as two {@link
 * FilterList}s.
 *
 * <h2>Grammar</h2>
 *
 * <pre>
 * filter-string = expression ;
 * expression    = and-expr , { "OR" , and-expr } ;      (* a FilterList MUST_PASS_ONE *)
 * and-expr      = unary , { "AND" , unary } ;           (* a FilterList MUST_PASS_ALL *)
 * unary         = "SKIP" , unary                        (* a SkipFilter *)
 *               | "WHILE" , unary                       (* a WhileMatchFilter *)
 *               | primary ;
 * primary       = "(" , expression , ")" | simple-filter ;
 * simple-filter = filter-name , "(" , [ argument , { "," , argument } ] , ")" ;
 * filter-name   = word ;                                (* one of supportedFilters() *)
 * argument      = quoted | word ;
 * quoted        = "'" , { any character but "'" | "''" } , "'" ;   (* '' is one quote *)
 * word          = word-char , { word-char } ;  (* any character but whitespace ( ) , ' *)
 * </pre>
 *
 * Whitespace (any, including newlines) may stand between tokens. The operators are upper case
 * words; SKIP and WHILE bind tighter than AND, and AND tighter than OR, as in HBase. Operands of
 * one operator at one level form one list ({@code A AND B AND C} is one list of three); parentheses
 * start a new level. Each filter then reads its arguments as follows:
 *
 * <pre>
 * byte-string = quoted ;                  (* \xNN is the byte NN; other characters their UTF-8 *)
 * number      = [ "-" ] , digit , { digit } ;              (* decimal, unquoted *)
 * boolean     = "true" | "false" ;                         (* unquoted, any letter case *)
 * compare-op  = "&lt;" | "&lt;=" | "=" | "!=" | "&gt;=" | "&gt;"
 *             | "LESS" | "LESS_OR_EQUAL" | "EQUAL" | "NOT_EQUAL" | "GREATER_OR_EQUAL" | "GREATER" ;
 * comparator  = "'" , comparator-type , ":" , value , "'" ;   (* split at the first colon *)
 * comparator-type = "binary" | "binaryprefix" | "regexstring" | "substring" ;
 * </pre>
 *
 * {@code binary} and {@code binaryprefix} values are byte strings; {@code regexstring} and {@code
 * substring} values are text, and work only with {@code =} and {@code !=}. {@link #usage(String)}
 * gives each filter's arguments.
 *
 * <h2>Differences from HBase's parser</h2>
 *
 * <ul>
 *   <li>{@code \xNN} escapes in byte strings (HBase's parser takes backslashes literally; its shell
 *       gets binary bytes from Ruby string escapes, which Basalt's shell does not have).
 *   <li>The compare operator names ({@code LESS} ... {@code GREATER}, any case) besides the
 *       symbols.
 *   <li>{@code ColumnPaginationFilter(limit, 'columnOffset')}, the column-offset form.
 *   <li>Stricter: arguments must be separated by exactly one comma (HBase also splits at spaces and
 *       skips empty arguments); numbers must fit their type exactly; regexstring and substring
 *       comparators need {@code =} or {@code !=} in DependentColumnFilter too.
 *   <li>Any whitespace separates tokens (HBase: space and tab only).
 *   <li>Nesting deeper than 100 levels is rejected.
 * </ul>
 *
 * <h2>Errors</h2>
 *
 * Every malformed input raises a {@link FilterParseException} (an {@link IllegalArgumentException})
 * naming the problem and its position, with a caret line; nothing else escapes for any input. The
 * class is stateless and thread-safe.
 */
public final class ParseFilter {

  /** HBase's API shape ({@code new ParseFilter().parseFilterString(s)}); see the static methods. */
  public ParseFilter() {}

  /**
   * Parses a filter string.
   *
   * @throws FilterParseException for any malformed input; positions are character offsets
   */
  public static Filter parse(String filterString) {
    if (filterString == null) {
      throw new IllegalArgumentException("filter string must not be null");
    }
    return new FilterExpressionParser(filterString, false).parse();
  }

  /**
   * Parses a filter string given as bytes, as Thrift passes it: quoted byte strings keep their
   * bytes exactly (so raw binary keys work), text arguments are decoded as UTF-8.
   *
   * @throws FilterParseException for any malformed input; positions are byte offsets
   */
  public static Filter parse(byte[] filterString) {
    if (filterString == null) {
      throw new IllegalArgumentException("filter string must not be null");
    }
    // One character per byte, so offsets are byte offsets and literals map back to their bytes.
    String text = new String(filterString, StandardCharsets.ISO_8859_1);
    return new FilterExpressionParser(text, true).parse();
  }

  /** The filter names the language knows, sorted (for completion and help). */
  public static SortedSet<String> supportedFilters() {
    return FilterCatalog.names();
  }

  /**
   * How a filter's arguments are written, e.g. {@code "PrefixFilter('rowPrefix')"}; empty for a
   * name the language does not know.
   */
  public static Optional<String> usage(String filterName) {
    FilterCatalog.Spec spec = filterName == null ? null : FilterCatalog.find(filterName);
    return Optional.ofNullable(spec == null ? null : spec.usage);
  }

  /** Same as {@link #parse(String)}, under HBase's name. */
  public Filter parseFilterString(String filterString) {
    return parse(filterString);
  }

  /** Same as {@link #parse(byte[])}, under HBase's name. */
  public Filter parseFilterString(byte[] filterString) {
    return parse(filterString);
  }

  /** Same as {@link #supportedFilters()}, under HBase's name. */
  public Set<String> getSupportedFilters() {
    return supportedFilters();
  }
}
