package dev.basalt.region.model;

/**
 * An error the model predicts for an operation (SEMANTICS.md section 2, "Bad input changes
 * nothing"). When the model throws this, it has written nothing for the operation.
 */
public final class ModelException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What is wrong with the operation. */
  public enum Kind {
    /** A mutation, condition or read names a family the table does not have. */
    NO_SUCH_FAMILY,
    /** A Put, Increment or Append without cells, or an empty RowMutations. */
    EMPTY_MUTATION,
    /** An Increment whose current value is not 8 bytes wide; {@link #width()} says how wide. */
    NOT_A_COUNTER
  }

  private final Kind kind;
  private final int width;

  public ModelException(Kind kind, String message) {
    this(kind, message, -1);
  }

  public ModelException(Kind kind, String message, int width) {
    super(kind + ": " + message);
    this.kind = kind;
    this.width = width;
  }

  public Kind kind() {
    return kind;
  }

  /** For {@link Kind#NOT_A_COUNTER}: the width in bytes of the value that is not a long. */
  public int width() {
    return width;
  }
}
