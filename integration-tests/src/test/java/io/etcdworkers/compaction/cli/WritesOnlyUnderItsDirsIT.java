package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore and a compaction (Local bucket), run as the Job runs them (the jar, the Jobs' JVM
 * flags in {@code JAVA_TOOL_OPTIONS}) under {@code strace -f}: every path any of their processes
 * (the JVM, etcd, etcdctl, the orphan guard's shell) created, opened for writing, renamed or
 * removed lies under the data dir (and its {@code .part}/{@code .lock} siblings), the scratch
 * dir, {@code java.io.tmpdir} or, for the compaction, the bucket. Not the working dir, not HOME,
 * not /tmp. {@code StoreWritesOnlyUnderItsDirsIT} does the same for compactions against stores
 * other than Local, with these helpers.
 */
@Timeout(600)
class WritesOnlyUnderItsDirsIT {
    /** What a syscall line names: an optional dir fd decoded by {@code -y}, then a quoted path. */
    private static final Pattern PATH_ARG = Pattern.compile("(?:(?:AT_FDCWD|\\d+)<([^>]*)>, )?\"([^\"]*)\"");

    private static final Pattern OPENED = Pattern.compile("= \\d+<([^>]*)>$");
    private static final Pattern WRITE_FLAGS = Pattern.compile("O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND");

    @TempDir
    Path dir;

    @BeforeAll
    static void needsStrace() throws Exception {
        boolean present;
        try {
            present = new ProcessBuilder("strace", "-V").start().waitFor() == 0;
        } catch (IOException e) {
            present = false;
        }
        Assumptions.assumeTrue(present, "strace is not installed: cannot see which paths the worker writes");
    }

    @Test
    void aRestoreWritesOnlyItsDataScratchAndTempDirs() throws IOException {
        // the parent exists, as the PVC's mount point does in the pod (a missing one would be created)
        Path data = Files.createDirectories(dir.resolve("data")).resolve("member0.etcd");
        Set<Path> written = traced(
                "restore.jar",
                "restore",
                "--store-container=" + Fixtures.bucket("gzip"),
                "--data-dir=" + data,
                "--scratch-dir=" + dir.resolve("scratch"));

        assertThat(data.resolve("member/snap/db")).exists();
        assertOnlyUnder(
                written,
                List.of(
                        data.toString(),
                        data + ".part",
                        data + ".lock",
                        dir.resolve("scratch").toString(),
                        dir.resolve("tmp").toString()));
    }

    @Test
    void aCompactionWritesOnlyItsScratchTempDirsAndTheBucket() throws IOException {
        Path bucket = Fixtures.copyBucket("gzip", dir.resolve("bucket"));
        Set<Path> written = traced(
                "worker.jar", "compact", "--store-container=" + bucket, "--scratch-dir=" + dir.resolve("scratch"));

        try (Stream<Path> files = Files.list(bucket.resolve("v2"))) {
            assertThat(files.filter(f -> f.getFileName().toString().startsWith("Full-00000000-00003656-")))
                    .as("the new snapshot")
                    .hasSize(1);
        }
        assertOnlyUnder(
                written,
                List.of(
                        bucket.toString(),
                        dir.resolve("scratch").toString(),
                        dir.resolve("tmp").toString()));
    }

    private Set<Path> traced(String jarProperty, String... args) throws IOException {
        return traced(dir, Map.of(), jarProperty, args);
    }

    /**
     * Runs the jar under strace with its own cwd, HOME and tmpdir in {@code dir} and the variables
     * of {@code secret} (a store's Secret); returns every path written.
     */
    static Set<Path> traced(Path dir, Map<String, String> secret, String jarProperty, String... args)
            throws IOException {
        Path work = Files.createDirectories(dir.resolve("cwd"));
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.createDirectories(dir.resolve("tmp"));
        Path traces = Files.createDirectories(dir.resolve("strace"));
        List<String> jvm = List.of();
        // the flags the launcher's Jobs give the worker (JobFactory.javaOptions), tmpdir moved here
        Map<String, String> env = new HashMap<>(secret);
        env.putAll(Map.of(
                "PATH",
                System.getenv("PATH"),
                "HOME",
                home.toString(),
                "JAVA_TOOL_OPTIONS",
                "-XX:+UseSerialGC -XX:MaxRAMPercentage=25.0 " + "-XX:-UsePerfData -Djava.io.tmpdir="
                        + dir.resolve("tmp")));
        List<String> command = new ArrayList<>(List.of(
                "strace",
                "-f",
                "-ff",
                "-y",
                "-qq",
                "--seccomp-bpf",
                "-e",
                "status=successful",
                "-e",
                "trace=open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2,"
                        + "unlink,unlinkat,rmdir,link,linkat,symlink,symlinkat,truncate",
                "-o",
                traces.resolve("t").toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvm);
        command.add("-jar");
        command.add(JarRun.jar(jarProperty).toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(work.toFile())
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        int code;
        try {
            code = builder.start().waitFor();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        assertThat(code).as(Files.readString(dir.resolve("stderr"))).isZero();

        Set<Path> written = new TreeSet<>();
        try (Stream<Path> files = Files.list(traces)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                for (String line : Files.readAllLines(file)) {
                    written.addAll(writtenBy(line));
                }
            }
        }
        assertThat(written).as("the trace saw the worker write at all").isNotEmpty();
        try (Stream<Path> left = Files.list(work);
                Stream<Path> inHome = Files.list(home)) {
            assertThat(left).as("nothing in the working dir").isEmpty();
            assertThat(inHome).as("nothing in HOME").isEmpty();
        }
        return written;
    }

    /** The paths one strace line writes (opened for writing, created, renamed, removed). */
    static List<Path> writtenBy(String line) {
        int paren = line.indexOf('(');
        if (paren < 0) {
            return List.of();
        }
        String call = line.substring(0, paren).trim();
        if (call.startsWith("open") || call.equals("creat")) {
            Matcher opened = OPENED.matcher(line);
            boolean writing = call.equals("creat") || WRITE_FLAGS.matcher(line).find();
            return writing && opened.find() ? List.of(Path.of(opened.group(1))) : List.of();
        }
        List<Path> paths = new ArrayList<>();
        Matcher m = PATH_ARG.matcher(line);
        while (m.find()) {
            Path p = Path.of(m.group(2));
            paths.add(
                    p.isAbsolute() || m.group(1) == null
                            ? p
                            : Path.of(m.group(1)).resolve(p));
        }
        return paths;
    }

    static void assertOnlyUnder(Set<Path> written, List<String> allowed) {
        List<Path> outside = written.stream()
                .map(Path::normalize)
                .filter(p -> !p.startsWith("/dev") && !p.startsWith("/proc"))
                .filter(p -> allowed.stream().noneMatch(a -> p.startsWith(a)))
                .toList();
        assertThat(outside).as("paths written outside %s", allowed).isEmpty();
    }
}
