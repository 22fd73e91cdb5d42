package dev.basalt.bench.chaos;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The command line of {@link ChaosSoak}; {@link #USAGE} lists it. */
final class SoakOptions {
  static final String USAGE =
      """
      usage: ChaosSoak [options]
        --root DIR              the cluster's root and logs (default: a new directory under /tmp)
        --class-path CP         the children's class path (default: this JVM's)
        --logback FILE          the children's Logback configuration (conf/logback.xml)
        --masters N             masters (default 2)
        --regionservers N       region servers (default 3)
        --minutes M             stop starting actions after M minutes (default 60)
        --cycles N              stop after N fault actions (default: no limit)
        --rs-kills N            stop once N region server processes were killed ...
        --master-kills N        ... and N master processes (both targets reached: stop)
        --plan LIST             run these actions in order instead of at random:
                                name[*count],... (names: see --list)
        --churn                 a move/split/merge/balance/flush/compact after each fault
                                (default in random mode; off with a plan unless given)
        --writers N             linked-list writer threads (default 4)
        --rate N                puts per second per writer (default 50; 0: unlimited)
        --regions N             regions of the linked-list table at the start (default 8)
        --seed N                random seed (default: the time)
        -D key=value            a setting of every master and region server
        --list                  the action names
        --help                  this text
      """;

  Path root;
  String classPath = System.getProperty("java.class.path");
  Path logback;
  int masters = 2;
  int regionServers = 3;
  long minutes = 60;
  long cycles = Long.MAX_VALUE;
  long rsKillTarget = -1;
  long masterKillTarget = -1;
  List<String> plan; // expanded: one entry per action run
  Boolean churn;
  int writers = 4;
  int rate = 50;
  int regions = 8;
  long seed = System.currentTimeMillis();
  final Map<String, String> settings = new LinkedHashMap<>();
  boolean list;
  boolean help;

  /**
   * @throws IllegalArgumentException naming the argument that is wrong
   */
  static SoakOptions parse(String[] args) {
    SoakOptions o = new SoakOptions();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        o.help = true;
        continue;
      }
      if (a.equals("--list")) {
        o.list = true;
        continue;
      }
      if (a.equals("--churn")) {
        o.churn = true;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(a + " needs a value");
      }
      String v = args[++i];
      switch (a) {
        case "--root" -> o.root = Path.of(v);
        case "--class-path" -> o.classPath = v;
        case "--logback" -> o.logback = Path.of(v);
        case "--masters" -> o.masters = positive(a, v);
        case "--regionservers" -> o.regionServers = positive(a, v);
        case "--minutes" -> o.minutes = positive(a, v);
        case "--cycles" -> o.cycles = positive(a, v);
        case "--rs-kills" -> o.rsKillTarget = positive(a, v);
        case "--master-kills" -> o.masterKillTarget = positive(a, v);
        case "--plan" -> o.plan = expand(v);
        case "--writers" -> o.writers = positive(a, v);
        case "--rate" -> o.rate = Integer.parseInt(v);
        case "--regions" -> o.regions = positive(a, v);
        case "--seed" -> o.seed = Long.parseLong(v);
        case "-D" -> {
          int eq = v.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("-D " + v + ": expected key=value");
          }
          o.settings.put(v.substring(0, eq), v.substring(eq + 1));
        }
        default -> throw new IllegalArgumentException("unknown argument " + a);
      }
    }
    if (o.masters < 2) {
      throw new IllegalArgumentException("--masters " + o.masters + ": master kills need 2");
    }
    if (o.regionServers < 3) {
      throw new IllegalArgumentException(
          "--regionservers " + o.regionServers + ": two-server kills need 3");
    }
    return o;
  }

  boolean churn() {
    return churn != null ? churn : plan == null;
  }

  private static int positive(String name, String v) {
    int n = Integer.parseInt(v);
    if (n < 1) {
      throw new IllegalArgumentException(name + " " + v + ": must be at least 1");
    }
    return n;
  }

  /** {@code a*3,b} -> [a, a, a, b], each name checked. */
  static List<String> expand(String plan) {
    List<String> out = new ArrayList<>();
    for (String part : plan.split(",")) {
      String p = part.trim();
      int star = p.indexOf('*');
      String name = star < 0 ? p : p.substring(0, star);
      int count = star < 0 ? 1 : positive("--plan " + p, p.substring(star + 1));
      if (!SoakActions.isName(name)) {
        throw new IllegalArgumentException("--plan: unknown action '" + name + "' (see --list)");
      }
      for (int i = 0; i < count; i++) {
        out.add(name);
      }
    }
    return out;
  }
}
