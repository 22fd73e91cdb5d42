package dev.basalt.filter;

import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;

/** The structure of a parsed filter as a short string: AND(..), OR(..), SKIP(..), WHILE(..). */
final class FilterShapes {
  private FilterShapes() {}

  /** Lists and wrappers by structure; other filters by their toString (class and parameters). */
  static String of(Filter f) {
    if (f instanceof FilterList) {
      FilterList list = (FilterList) f;
      String op = list.getOperator() == FilterList.Operator.MUST_PASS_ALL ? "AND(" : "OR(";
      StringJoiner j = new StringJoiner(", ", op, ")");
      for (Filter member : list.getFilters()) {
        j.add(of(member));
      }
      return j.toString();
    }
    if (f instanceof SkipFilter) {
      return "SKIP(" + of(((SkipFilter) f).getFilter()) + ")";
    }
    if (f instanceof WhileMatchFilter) {
      return "WHILE(" + of(((WhileMatchFilter) f).getFilter()) + ")";
    }
    if (f instanceof PrefixFilter) {
      // Short leaves keep the shapes in the grammar tests readable.
      return new String(((PrefixFilter) f).getPrefix(), StandardCharsets.UTF_8);
    }
    return f.toString();
  }

  /** The shape of a parsed string. */
  static String parse(String filterString) {
    return of(ParseFilter.parse(filterString));
  }
}
