package dev.basalt.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's embedded example, exactly as a reader copies it (imports and all), compiles against
 * basalt-core and runs: a change of the library's API that breaks it fails the build.
 */
class ReadmeExampleTest {
  static final String MARKER = "<!-- embedded-example:";

  @TempDir Path dir;

  @Test
  void theEmbeddedExampleCompilesAndRuns() throws Exception {
    String source = exampleSource(Files.readString(readme(), StandardCharsets.UTF_8));
    Matcher className = Pattern.compile("public class (\\w+)").matcher(source);
    assertThat(className.find()).as("the example declares a public class").isTrue();
    Path src = dir.resolve("src").resolve(className.group(1) + ".java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, source, StandardCharsets.UTF_8);
    Path classes = Files.createDirectories(dir.resolve("classes"));

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter messages = new StringWriter();
    Boolean compiled =
        javac
            .getTask(
                messages,
                null,
                null,
                List.of(
                    "-classpath",
                    System.getProperty("java.class.path"),
                    "-d",
                    classes.toString(),
                    // a deprecated call in the example fails too; "path": the class path names
                    // this pom module's classes directory, which does not exist
                    "-Xlint:all,-path,-processing",
                    "-Werror"),
                null,
                javac
                    .getStandardFileManager(null, null, StandardCharsets.UTF_8)
                    .getJavaFileObjects(src))
            .call();
    assertThat(compiled).as("javac: %s", messages).isTrue();

    // run in a child JVM whose working directory is a temp dir, so that the example's relative
    // "basalt-data" lands there
    Path work = Files.createDirectories(dir.resolve("work"));
    Output out = runJava(work, classes, className.group(1));
    assertThat(out.exitCode()).as(out.err()).isZero();
    assertThat(out.out().lines()).as(out.err()).containsExactly("v1", "row1", "row2");
    assertThat(work.resolve("basalt-data")).isDirectory();
  }

  @Test
  void theMarkerIsFollowedByAJavaBlock() {
    String text = "intro\n" + MARKER + " x -->\n```java\nclass A {}\n```\nafter\n";
    assertThat(exampleSource(text)).isEqualTo("class A {}\n");
  }

  /** The ```java block right after the marker comment. */
  static String exampleSource(String readme) {
    int marker = readme.indexOf(MARKER);
    assertThat(marker).as("README.md has the marker %s", MARKER).isGreaterThanOrEqualTo(0);
    int open = readme.indexOf("```java\n", marker);
    assertThat(open).as("a ```java block after the marker").isGreaterThan(marker);
    assertThat(readme.substring(readme.indexOf('\n', marker) + 1, open))
        .as("nothing between the marker and the block")
        .isBlank();
    int start = open + "```java\n".length();
    int end = readme.indexOf("```", start);
    return readme.substring(start, end);
  }

  private static Path readme() {
    Path here = Path.of("").toAbsolutePath();
    Path top = Files.exists(here.resolve("README.md")) ? here : here.getParent();
    return top.resolve("README.md");
  }

  private static Output runJava(Path workDir, Path classes, String mainClass)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    // the test class path has Logback without a configuration (DEBUG to stdout): no logging
    cmd.add("-Dslf4j.provider=org.slf4j.helpers.NOP_FallbackServiceProvider");
    cmd.add("-cp");
    cmd.add(classes + java.io.File.pathSeparator + System.getProperty("java.class.path"));
    cmd.add(mainClass);
    Path out = workDir.resolve("out.txt");
    Path err = workDir.resolve("err.txt");
    Process p =
        new ProcessBuilder(cmd)
            .directory(workDir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("the example did not finish: " + Files.readString(err));
    }
    return new Output(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private record Output(int exitCode, String out, String err) {}
}
