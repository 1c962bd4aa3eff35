package io.etcdworkers.testsupport;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An etcd release on this machine: a bin dir holding {@code etcd} (and {@code etcdctl}, from 3.5
 * on {@code etcdutl}), and the version its {@code etcd --version} prints. The tests find it
 * themselves, not through the worker's own lookup, so the etcd a test checks the worker with
 * does not depend on the code under test; a test that hands etcd to worker code passes
 * {@link #binDir()} as the worker's {@code --etcd-bin-dir} would.
 *
 * @param binDir the absolute dir of {@code etcd}
 * @param version what {@code etcd --version} says
 */
public record EtcdInstall(Path binDir, Version version) {
    // Anchored at a line start: "Go Version: go1.19.8" is not etcd's.
    private static final Pattern VERSION_LINE = Pattern.compile("(?m)^etcd Version:\\s*v?(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(60);

    /** {@code major.minor.patch}, the form the workers print in their result JSON. */
    public record Version(int major, int minor, int patch) {
        public boolean atLeast(int major, int minor) {
            return this.major > major || this.major == major && this.minor >= minor;
        }

        @Override
        public String toString() {
            return major + "." + minor + "." + patch;
        }
    }

    /** The etcd in {@code binDir}; fails when there is none or it does not say its version. */
    public static EtcdInstall in(Path binDir) {
        Path etcd = binDir.resolve("etcd");
        if (!Files.isRegularFile(etcd) || !Files.isExecutable(etcd)) {
            throw new IllegalStateException("no etcd executable in " + binDir);
        }
        List<String> command = List.of(etcd.toString(), "--version");
        String said = ProcessRun.run(command, Map.of(), TOOL_TIMEOUT).requireSuccess(command);
        Matcher m = VERSION_LINE.matcher(said);
        if (!m.find()) {
            throw new IllegalStateException(etcd + " --version printed no etcd version: " + said);
        }
        return new EtcdInstall(
                binDir.toAbsolutePath(),
                new Version(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))));
    }

    /** The etcd in the first dir of {@code path} (a PATH value) that holds one. */
    public static EtcdInstall onPath(String path) {
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()
                    && Files.isRegularFile(Path.of(dir, "etcd"))
                    && Files.isExecutable(Path.of(dir, "etcd"))) {
                return in(Path.of(dir));
            }
        }
        throw new IllegalStateException(
                "no etcd on PATH (" + path + "): install etcd-server and etcd-client" + " (Debian), as .ci/run does");
    }

    public Path etcd() {
        return binDir.resolve("etcd");
    }

    public Optional<Path> etcdctl() {
        return tool("etcdctl");
    }

    public Optional<Path> etcdutl() {
        return tool("etcdutl");
    }

    /**
     * The offline snapshot tool: {@code etcdutl} from 3.5 on when present ({@code etcdctl}'s
     * snapshot commands are deprecated there and print a warning line first), else {@code etcdctl}.
     */
    public Path snapshotTool() {
        Optional<Path> etcdutl = version.atLeast(3, 5) ? etcdutl() : Optional.empty();
        return etcdutl.or(this::etcdctl)
                .orElseThrow(() -> new IllegalStateException("neither etcdutl nor etcdctl next to " + etcd()));
    }

    /** Runs {@code tool} (etcdctl's v3 API) with nothing else in its environment; its stdout, or an error with what it said. */
    public String run(Path tool, String... args) {
        List<String> command = new ArrayList<>(List.of(tool.toString()));
        command.addAll(List.of(args));
        return ProcessRun.run(command, Map.of("ETCDCTL_API", "3"), TOOL_TIMEOUT).requireSuccess(command);
    }

    private Optional<Path> tool(String name) {
        Path tool = binDir.resolve(name);
        return Files.isRegularFile(tool) && Files.isExecutable(tool) ? Optional.of(tool) : Optional.empty();
    }
}
