package dev.basalt.shell;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * bin/basalt shell: connects through the stock HBase client and runs HBase shell commands from -e,
 * a script file, standard input (when it is not a terminal) or an interactive editor. Exit codes: 0
 * success, 1 a command failed (a script stops at its first failure), 2 a bad command line.
 */
@CommandLine.Command(
    name = "basalt shell",
    mixinStandardHelpOptions = true,
    versionProvider = ShellMain.Version.class,
    description = {
      "The HBase shell's commands and syntax on the stock HBase client,",
      "for Basalt and any HBase 2.x cluster. 'help' in the shell lists the commands."
    })
public final class ShellMain implements Callable<Integer> {
  @Option(
      names = {"-z", "--zookeeper"},
      paramLabel = "HOST:PORT[,HOST:PORT...]",
      description =
          "ZooKeeper quorum of the cluster (default: the configuration's, else localhost:2181)")
  String zookeeper;

  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = "an hbase-site.xml style configuration file")
  Path config;

  @Option(
      names = "-D",
      paramLabel = "KEY=VALUE",
      description = "a client setting, e.g. -D hbase.client.retries.number=3")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(
      names = {"-e", "--execute"},
      paramLabel = "COMMANDS",
      description = "run these commands (separated by ';' or newlines) and exit")
  String execute;

  @Option(names = "--debug", description = "stack traces on errors and the HBase client's logging")
  boolean debug;

  @Option(
      names = "--history",
      paramLabel = "FILE",
      description = "history file of the interactive shell (default: ~/.basalt_shell_history)")
  Path history;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "0..1", paramLabel = "SCRIPT", description = "a file of commands to run")
  Path script;

  private InputStream in = System.in;
  private PrintStream out = System.out;
  private PrintStream err = System.err;

  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err));
  }

  /** Runs the shell with the given streams and returns its exit code (for tests and main). */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    ShellMain main = new ShellMain();
    main.in = in;
    main.out = out;
    main.err = err;
    CommandLine cl = new CommandLine(main);
    cl.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
    cl.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
    return cl.execute(args);
  }

  @Override
  public Integer call() throws IOException {
    // Before anything logs: logback.xml reads this to keep the client quiet unless --debug.
    System.setProperty("basalt.shell.client.log", debug ? "INFO" : "OFF");
    Configuration conf = configuration();
    CommandTable commands = CommandTable.standard();
    if (execute == null && script == null && in == System.in && System.console() != null) {
      try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
        return new InteractiveShell(
                terminal, commands, conf, debug, historyFile(), ZoneId.systemDefault())
            .run();
      }
    }
    String text;
    if (execute != null) {
      text = execute;
    } else if (script != null) {
      try {
        text = Files.readString(script, StandardCharsets.UTF_8);
      } catch (IOException e) {
        err.println("ERROR: cannot read script " + script + ": " + e.getMessage());
        return 1;
      }
    } else {
      text = new String(readAll(in), StandardCharsets.UTF_8);
    }
    PrintWriter o = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
    PrintWriter e = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
    try (Session session = new Session(conf, o, () -> 0, ZoneId.systemDefault(), debug)) {
      boolean ok = new ShellRunner(commands, session, e).runScript(text);
      o.flush();
      return ok ? 0 : 1;
    }
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    in.transferTo(buf);
    return buf.toByteArray();
  }

  private Path historyFile() {
    return history != null
        ? history
        : Path.of(System.getProperty("user.home"), ".basalt_shell_history");
  }

  /** hbase-default.xml, then --config, then -z, then -D (later wins). */
  Configuration configuration() {
    Configuration conf = HBaseConfiguration.create();
    if (config != null) {
      if (!Files.isReadable(config)) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "cannot read the configuration file " + config);
      }
      conf.addResource(new org.apache.hadoop.fs.Path(config.toAbsolutePath().toString()));
    }
    if (zookeeper != null) {
      applyQuorum(conf, zookeeper);
    }
    settings.forEach(conf::set);
    // The client retries a ZooKeeper read 30 times by default, so a shell pointed at a stopped
    // cluster would sit silent for minutes; three retries report it within seconds. A
    // configuration file or -D that sets the key wins.
    if (conf.get("zookeeper.recovery.retry") == null) {
      conf.setInt("zookeeper.recovery.retry", 3);
    }
    return conf;
  }

  /** "host:port" sets the quorum host and client port; several hosts go in as a list. */
  void applyQuorum(Configuration conf, String quorum) {
    String[] hosts = quorum.split(",");
    for (String h : hosts) {
      int colon = h.lastIndexOf(':');
      if (h.isBlank() || (colon >= 0 && !h.substring(colon + 1).matches("\\d{1,5}"))) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "-z expects HOST:PORT[,HOST:PORT...], got '" + quorum + "'");
      }
    }
    if (hosts.length == 1 && hosts[0].contains(":")) {
      int colon = hosts[0].lastIndexOf(':');
      conf.set("hbase.zookeeper.quorum", hosts[0].substring(0, colon));
      conf.set("hbase.zookeeper.property.clientPort", hosts[0].substring(colon + 1));
    } else {
      conf.set("hbase.zookeeper.quorum", quorum);
    }
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {
        "basalt shell on the HBase client " + org.apache.hadoop.hbase.util.VersionInfo.getVersion()
      };
    }
  }
}
