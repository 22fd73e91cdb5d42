package dev.basalt.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.ZoneId;
import org.apache.hadoop.conf.Configuration;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;

/**
 * The interactive shell on a JLine terminal: a prompt like HBase's, history kept in a file across
 * runs, completion, multi-line statements, and Ctrl-C that stops the running command (or clears the
 * line being typed) without leaving the shell. Ctrl-D or exit leaves.
 */
final class InteractiveShell {
  private final Terminal terminal;
  private final CommandTable commands;
  private final Configuration conf;
  private final boolean debug;
  private final Path history;
  private final ZoneId zone;

  InteractiveShell(
      Terminal terminal,
      CommandTable commands,
      Configuration conf,
      boolean debug,
      Path history,
      ZoneId zone) {
    this.terminal = terminal;
    this.commands = commands;
    this.conf = conf;
    this.debug = debug;
    this.history = history;
    this.zone = zone;
  }

  /** Reads and runs statements until exit or end of input; returns the exit code (0). */
  int run() throws IOException {
    PrintWriter out = terminal.writer();
    // a dumb terminal reports width 0: no padding, as HBase prints to a pipe
    try (Session session = new Session(conf, out, terminal::getWidth, zone, debug)) {
      ShellRunner runner = new ShellRunner(commands, session, out);
      LineReader reader =
          LineReaderBuilder.builder()
              .terminal(terminal)
              .appName("basalt")
              .parser(new ShellLineParser())
              .completer(new ShellCompleter(commands, session))
              .variable(LineReader.HISTORY_FILE, history)
              .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
              .option(LineReader.Option.HISTORY_IGNORE_DUPS, true)
              .build();
      // While a command runs the editor is not reading, so Ctrl-C reaches this handler.
      terminal.handle(Terminal.Signal.INT, signal -> session.cancellation().cancel());
      out.println("Basalt shell on the HBase client; 'help' lists the commands, 'exit' leaves.");
      out.flush();
      int n = 1;
      while (!session.exitRequested()) {
        String text;
        reader.setVariable(
            LineReader.SECONDARY_PROMPT_PATTERN, String.format("basalt:%03d:1> ", n));
        try {
          text = reader.readLine(String.format("basalt:%03d:0> ", n));
        } catch (UserInterruptException e) {
          continue; // Ctrl-C while typing drops the line, as in a Unix shell
        } catch (EndOfFileException e) {
          break;
        }
        if (text.isBlank()) {
          continue;
        }
        n++;
        runner.runScript(text);
      }
      reader.getHistory().save();
      return 0;
    }
  }
}
