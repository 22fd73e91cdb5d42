package dev.basalt.shell;

import java.util.List;

/**
 * One shell command: its name, its help group, what its first argument names (for completion), the
 * option keys its hashes take (for completion and help) and what it does.
 */
record Command(
    String name, String group, FirstArg firstArg, List<String> optionKeys, Action action) {
  /** What the first argument of a command is, so completion can offer the right names. */
  enum FirstArg {
    NONE,
    TABLE,
    NAMESPACE,
    COMMAND,
    /** A live region server, host,port,startcode. */
    SERVER,
    /** A replication peer id. */
    PEER
  }

  @FunctionalInterface
  interface Action {
    void run(Arguments args, Session session) throws Exception;
  }

  static Command of(String name, String group, FirstArg firstArg, Action action) {
    return new Command(name, group, firstArg, List.of(), action);
  }

  Command withOptions(List<String> keys) {
    return new Command(name, group, firstArg, keys, action);
  }
}
