package dev.basalt.shell;

import java.util.List;

/**
 * One parsed command: its name, its arguments (ShellString, Long, Boolean, null, List, or an
 * ordered Map with String keys; trailing {@code KEY => value} pairs are gathered into one Map as
 * the last argument, as Ruby does) and where it starts and ends in the input.
 */
record Statement(String command, List<Object> args, int start, int end) {}
