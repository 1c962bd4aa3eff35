package io.etcdworkers.etcd;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The etcd executables the worker runs, and their version.
 *
 * <p>Contract of {@link #locate}: each tool is looked up in {@code --etcd-bin-dir} when given,
 * otherwise in the directories of the PATH string passed in (never read from the environment
 * here). {@code etcd} is always required; the snapshot restore tool is required for the version
 * found: {@code etcdctl} on 3.4, {@code etcdutl} or {@code etcdctl} on 3.5, {@code etcdutl} from
 * 3.6 on. Anything missing is a {@link ErrorCode#USAGE} error that says what to install.
 *
 * @param etcd the server binary
 * @param etcdctl the client tool, if found
 * @param etcdutl the offline tool (3.5+), if found
 * @param version what {@code etcd --version} printed
 */
public record EtcdBinaries(Path etcd, Optional<Path> etcdctl, Optional<Path> etcdutl, EtcdVersion version) {

    static final Duration VERSION_TIMEOUT = Duration.ofSeconds(10);
    private static final String INSTALL_HINT =
            "install etcd (Debian: `apt-get install etcd-server etcd-client`) or set --etcd-bin-dir"
                    + " to a directory holding etcd, etcdctl and (etcd 3.5+) etcdutl";

    public EtcdBinaries {
        Objects.requireNonNull(etcd, "etcd");
        Objects.requireNonNull(etcdctl, "etcdctl");
        Objects.requireNonNull(etcdutl, "etcdutl");
        Objects.requireNonNull(version, "version");
    }

    /**
     * Finds the tools and runs {@code etcd --version}.
     *
     * @param binDir {@code --etcd-bin-dir}, or empty to search {@code path}
     * @param path the PATH value of the worker's environment (may be empty)
     */
    public static EtcdBinaries locate(Optional<Path> binDir, String path) {
        String where = binDir.map(d -> "in --etcd-bin-dir " + d).orElse("on PATH (" + path + ")");
        Path etcd = find("etcd", binDir, path)
                .orElseThrow(() ->
                        new WorkerException(ErrorCode.USAGE, "etcd binary not found " + where + ": " + INSTALL_HINT));
        EtcdVersion version = EtcdVersion.parse(runVersion(etcd));
        EtcdBinaries found =
                new EtcdBinaries(etcd, find("etcdctl", binDir, path), find("etcdutl", binDir, path), version);
        // Fail now, not after the snapshot was downloaded.
        found.snapshotRestoreTool();
        return found;
    }

    /**
     * The tool that restores a snapshot file into a data dir: {@code etcdutl} on 3.5+ when
     * present, else {@code etcdctl} (which 3.6 no longer lets restore).
     *
     * @throws WorkerException {@link ErrorCode#USAGE} when the version needs a tool not found
     */
    public Path snapshotRestoreTool() {
        if (version.hasEtcdutl() && etcdutl.isPresent()) {
            return etcdutl.get();
        }
        if (version.etcdctlRestores() && etcdctl.isPresent()) {
            return etcdctl.get();
        }
        String needed =
                version.etcdctlRestores() ? (version.hasEtcdutl() ? "etcdutl or etcdctl" : "etcdctl") : "etcdutl";
        throw new WorkerException(
                ErrorCode.USAGE,
                "etcd " + version + " found at " + etcd + " but not " + needed
                        + " next to it, which restores snapshots: " + INSTALL_HINT);
    }

    /** Whether {@link #snapshotRestoreTool()} is etcdutl (no {@code ETCDCTL_API} needed). */
    public boolean restoresWithEtcdutl() {
        return snapshotRestoreTool().equals(etcdutl.orElse(null));
    }

    static Optional<Path> find(String name, Optional<Path> binDir, String path) {
        if (binDir.isPresent()) {
            return executable(binDir.get().resolve(name));
        }
        for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Optional<Path> candidate = executable(Path.of(dir).resolve(name));
                if (candidate.isPresent()) {
                    return candidate;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> executable(Path candidate) {
        return Files.isRegularFile(candidate) && Files.isExecutable(candidate)
                ? Optional.of(candidate.toAbsolutePath())
                : Optional.empty();
    }

    private static String runVersion(Path etcd) {
        Process p = null;
        try {
            p = new ProcessBuilder(etcd.toString(), "--version")
                    .redirectErrorStream(true)
                    .start();
            p.getOutputStream().close();
            Process started = p;
            // Read on another thread: a binary that hangs with its stdout open must still time out.
            CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(started));
            if (!p.waitFor(VERSION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new WorkerException(
                        ErrorCode.ETCD_FAILURE,
                        "`" + etcd + " --version` did not finish in " + VERSION_TIMEOUT.toSeconds() + " s");
            }
            return new String(out.get(VERSION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), StandardCharsets.UTF_8);
        } catch (IOException | ExecutionException | TimeoutException e) {
            throw new WorkerException(
                    ErrorCode.USAGE, "cannot run " + etcd + " --version: " + e.getMessage() + "; " + INSTALL_HINT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new WorkerException(ErrorCode.INTERRUPTED, "interrupted while running " + etcd + " --version", e);
        }
    }

    private static byte[] readAll(Process p) {
        try (var in = p.getInputStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
