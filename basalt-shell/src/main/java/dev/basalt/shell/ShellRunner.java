package dev.basalt.shell;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Runs statements: finds each command, runs it, prints "Took N seconds" after it, and turns
 * failures into one "ERROR: ..." line (with the stack trace only in debug mode).
 */
final class ShellRunner {
  private final CommandTable commands;
  private final Session session;
  private final PrintWriter err;

  ShellRunner(CommandTable commands, Session session, PrintWriter err) {
    this.commands = commands;
    this.session = session;
    this.err = err;
  }

  /**
   * Runs every statement of {@code text} in order, stopping at the first one that fails (or at
   * exit). Returns false if a statement failed or could not be parsed.
   */
  boolean runScript(String text) {
    StatementParser parser = new StatementParser(text);
    while (!session.exitRequested()) {
      Statement st;
      try {
        st = parser.next();
      } catch (SyntaxException e) {
        error("syntax error at " + e.getMessage());
        return false;
      }
      if (st == null) {
        return true;
      }
      if (!run(st)) {
        return false;
      }
    }
    return true;
  }

  /** Runs one statement; false if it failed or was cancelled. */
  boolean run(Statement st) {
    Command command = commands.find(st.command());
    if (command == null) {
      String near = commands.suggest(st.command());
      error(
          "unknown command '"
              + st.command()
              + "'"
              + (near != null ? "; did you mean '" + near + "'?" : "")
              + " ('help' lists the commands)");
      return false;
    }
    long start = System.nanoTime();
    Cancellation cancellation = session.cancellation();
    cancellation.begin();
    try {
      command.action().run(new Arguments(command.name(), st.args()), session);
      session.out().flush();
      if (!command.name().equals("help") && !command.name().equals("exit")) {
        session
            .out()
            .println(
                String.format(Locale.ROOT, "Took %.4f seconds", (System.nanoTime() - start) / 1e9));
        session.out().flush();
      }
      return true;
    } catch (Exception e) {
      session.out().flush();
      if (cancellation.requested()) {
        error(command.name() + " cancelled (Ctrl-C)");
      } else {
        error(ErrorMessages.describe(e, st, session));
        if (session.debug()) {
          e.printStackTrace(err);
        }
      }
      return false;
    } finally {
      cancellation.end();
    }
  }

  private void error(String message) {
    err.println("ERROR: " + message);
    err.flush();
  }
}
