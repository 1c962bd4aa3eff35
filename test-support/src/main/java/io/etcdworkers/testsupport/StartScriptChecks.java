package io.etcdworkers.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a start script of the checkout's {@code bin/} must do, checked on the real script and its
 * module's freshly built jar: a module's {@code StartScriptIT} extends this with its tool's name.
 * The script is started as a user would: through a symlink to a symlink, from a working
 * directory outside the checkout, with {@code JAVA_HOME} and {@code JAVA_OPTS} set and nothing
 * else inherited.
 */
@Timeout(120)
public abstract class StartScriptChecks {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** SIGTERM's exit status: the JVM's own on that signal, and what a shell reports for one it died of. */
    private static final int EXIT_ON_SIGTERM = 128 + 15;

    private final String tool;
    /** Whether the script passes the checkout's {@code worker-jvm.options} (the workers' do). */
    private final boolean workerOptions;

    @TempDir
    Path dir;

    /** Links to files outside {@link #dir}: removed before JUnit cleans it, which warns of each. */
    private final List<Path> links = new ArrayList<>();

    /** @param tool the script's and the jar's name: {@code restore-worker} runs {@code restore-worker.jar} */
    protected StartScriptChecks(String tool, boolean workerOptions) {
        this.tool = tool;
        this.workerOptions = workerOptions;
    }

    @AfterEach
    void removeLinks() throws IOException {
        for (Path link : links) {
            Files.deleteIfExists(link);
        }
    }

    @Test
    void runsFromAnotherDirectoryThroughSymlinksAndTakesJavaOpts() throws IOException {
        ProcessRun script = run(link(), "-XshowSettings:vm -Xmx96m", "--version");

        JarRun jar = JarRun.run(jar(), Map.of(), dir, List.of(), "--version");
        assertThat(script.exitCode()).as(script.stderr()).isZero();
        assertThat(script.stdout())
                .as("what java -jar prints, and nothing else on stdout")
                .isEqualTo(jar.stdout());
        // printed by the JVM itself: JAVA_OPTS reached it, and its -Xmx won over the argument file's
        assertThat(script.stderr()).contains("Max. Heap Size: 96.00M");
    }

    @Test
    void passesTheWorkersJvmOptionsFromItsOwnPath() throws IOException {
        ProcessRun script = run(link(), "-XshowSettings:vm", "--version");

        assertThat(script.exitCode()).as(script.stderr()).isZero();
        // worker-jvm.options: -Xms16m -Xmx256m; the working directory has no such file
        if (workerOptions) {
            assertThat(script.stderr()).contains("Min. Heap Size: 16.00M", "Max. Heap Size: 256.00M");
        } else {
            assertThat(script.stderr()).doesNotContain("Max. Heap Size: 256.00M");
        }
    }

    @Test
    void findsTheJarBesideItsBinDirAsInTheImage() throws IOException {
        // the image's layout: /app/bin/<tool> and its run-jar.sh, /app/<tool>.jar
        Path app = Files.createDirectories(dir.resolve("app/bin"));
        for (String file : List.of(tool, "run-jar.sh")) {
            Files.copy(checkout().resolve("bin").resolve(file), app.resolve(file));
        }
        links.add(Files.createSymbolicLink(dir.resolve("app").resolve(tool + ".jar"), jar()));

        ProcessRun script = run(app.resolve(tool), "-XshowSettings:vm", "--version");

        assertThat(script.exitCode()).as(script.stderr()).isZero();
        // no worker-jvm.options there: in the image JAVA_TOOL_OPTIONS sizes the heap from the memory limit
        assertThat(script.stderr()).doesNotContain("Max. Heap Size: 256.00M");
    }

    @Test
    void namesAJavaHomeWithoutJava() throws IOException {
        Map<String, String> env = env("");
        env.put("JAVA_HOME", dir.resolve("no-jdk").toString());

        ProcessRun script = ProcessRun.run(List.of(link().toString(), "--version"), env, dir, dir, TIMEOUT);

        assertThat(script.exitCode()).isEqualTo(1);
        assertThat(script.stderr()).contains("JAVA_HOME is " + dir.resolve("no-jdk"), "not an executable");
    }

    @Test
    void theWorkersJvmWritesNoPerfDataFile() throws Exception {
        Assumptions.assumeTrue(workerOptions, "only the workers' scripts pass worker-jvm.options");
        Process started = startWaiting();
        try {
            // HotSpot's counters file: always under /tmp (TMPDIR and java.io.tmpdir do not move it),
            // created when the JVM starts, before main
            Path perfData =
                    Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(started.pid()));
            assertThat(perfData).doesNotExist();
        } finally {
            stop(started);
        }
    }

    @Test
    void sigtermToTheScriptsPidReachesTheJvm() throws Exception {
        Process started = startWaiting();
        try {

            // exec: the pid the script started as is the JVM now, with no shell left around it
            Path java = Path.of(System.getProperty("java.home"), "bin", "java").toRealPath();
            assertThat(started.info().command()).hasValue(java.toString());
            assertThat(started.descendants())
                    .as("processes below the script's pid")
                    .isEmpty();

            started.destroy(); // SIGTERM
            assertThat(started.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                    .as("ended by SIGTERM")
                    .isTrue();
            assertThat(started.exitValue()).isEqualTo(EXIT_ON_SIGTERM);
        } finally {
            stop(started);
        }
    }

    /** The script's JVM, up and waiting before main for a debugger that never comes: it lives until signalled. */
    private Process startWaiting() throws IOException {
        Path out = dir.resolve("stdout");
        ProcessBuilder builder = new ProcessBuilder(link().toString(), "--version")
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(dir.resolve("stderr").toFile());
        builder.environment().clear();
        builder.environment().putAll(env("-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0"));
        Process started = builder.start();
        try {
            Awaitility.await("the JVM up and waiting")
                    .atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> Files.readString(out, StandardCharsets.UTF_8).contains("Listening for transport"));
        } catch (RuntimeException e) {
            stop(started);
            throw e;
        }
        return started;
    }

    /** A script that did not exec leaves its JVM waiting below it: both go. */
    private static void stop(Process started) {
        started.descendants().forEach(ProcessHandle::destroyForcibly);
        started.destroyForcibly();
    }

    private ProcessRun run(Path script, String javaOpts, String... args) {
        List<String> command = new ArrayList<>(List.of(script.toString()));
        command.addAll(List.of(args));
        return ProcessRun.run(command, env(javaOpts), dir, dir, TIMEOUT);
    }

    /** {@code <dir>/links/<tool>}, a relative symlink to an absolute one to {@code bin/<tool>}. */
    private Path link() throws IOException {
        Path linkDir = Files.createDirectories(dir.resolve("links"));
        Path absolute = linkDir.resolve(tool + "-absolute");
        if (!Files.isSymbolicLink(absolute)) {
            links.add(
                    Files.createSymbolicLink(absolute, checkout().resolve("bin").resolve(tool)));
            links.add(Files.createSymbolicLink(
                    linkDir.resolve(tool), Path.of(absolute.getFileName().toString())));
        }
        return linkDir.resolve(tool);
    }

    private static Map<String, String> env(String javaOpts) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", "/usr/bin:/bin");
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("JAVA_OPTS", javaOpts);
        return env;
    }

    private Path jar() {
        Path jar = checkout().resolve(tool).resolve("target").resolve(tool + ".jar");
        assertThat(jar)
                .as("the module's jar (mvn package builds it before the ITs)")
                .isRegularFile();
        return jar;
    }

    /** The checkout's root: the module's parent (Maven runs the tests in the module's dir). */
    private static Path checkout() {
        return Path.of("").toAbsolutePath().getParent();
    }
}
