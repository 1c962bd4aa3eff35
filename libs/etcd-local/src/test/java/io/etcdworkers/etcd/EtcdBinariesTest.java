package io.etcdworkers.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Locating the tools, against directories of fake executables (tiny shell scripts). */
@Timeout(30)
class EtcdBinariesTest {
    @TempDir
    Path dir;

    @Test
    void missingEtcdInBinDirSaysWhatToInstall() {
        assertThatThrownBy(() -> EtcdBinaries.locate(Optional.of(dir), "/usr/bin:/bin"))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE))
                .hasMessageContaining("etcd binary not found in --etcd-bin-dir " + dir)
                .hasMessageContaining("apt-get install etcd-server etcd-client")
                .hasMessageContaining("--etcd-bin-dir");
    }

    @Test
    void missingEtcdOnPathNamesThePath() {
        String path = dir.resolve("a") + File.pathSeparator + dir.resolve("b");

        assertThatThrownBy(() -> EtcdBinaries.locate(Optional.empty(), path))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE))
                .hasMessageContaining("on PATH (" + path + ")");
    }

    @Test
    void etcd34RestoresWithEtcdctlFoundOnPath() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        fakeEtcd(bin, "3.4.23");
        fakeTool(bin, "etcdctl");

        EtcdBinaries b = EtcdBinaries.locate(Optional.empty(), empty + File.pathSeparator + bin);

        assertThat(b.version()).isEqualTo(new EtcdVersion(3, 4, 23));
        assertThat(b.etcd()).isEqualTo(bin.resolve("etcd"));
        assertThat(b.snapshotRestoreTool()).isEqualTo(bin.resolve("etcdctl"));
        assertThat(b.restoresWithEtcdutl()).isFalse();
        assertThat(SnapshotRestorer.environment(b)).containsEntry("ETCDCTL_API", "3");
    }

    @Test
    void etcd35PrefersEtcdutl() throws IOException {
        fakeEtcd(dir, "3.5.17");
        fakeTool(dir, "etcdctl");
        fakeTool(dir, "etcdutl");

        EtcdBinaries b = EtcdBinaries.locate(Optional.of(dir), "");

        assertThat(b.snapshotRestoreTool()).isEqualTo(dir.resolve("etcdutl"));
        assertThat(SnapshotRestorer.environment(b)).isEmpty();
    }

    @Test
    void etcd35WithoutEtcdutlFallsBackToEtcdctl() throws IOException {
        fakeEtcd(dir, "3.5.17");
        fakeTool(dir, "etcdctl");

        assertThat(EtcdBinaries.locate(Optional.of(dir), "").snapshotRestoreTool())
                .isEqualTo(dir.resolve("etcdctl"));
    }

    @Test
    void etcd36WithoutEtcdutlIsAUsageError() throws IOException {
        fakeEtcd(dir, "3.6.4");
        fakeTool(dir, "etcdctl");

        assertThatThrownBy(() -> EtcdBinaries.locate(Optional.of(dir), ""))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE))
                .hasMessageContaining("etcd 3.6.4")
                .hasMessageContaining("not etcdutl");
    }

    @Test
    void etcd34WithoutEtcdctlIsAUsageError() throws IOException {
        fakeEtcd(dir, "3.4.23");

        assertThatThrownBy(() -> EtcdBinaries.locate(Optional.of(dir), ""))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE))
                .hasMessageContaining("not etcdctl");
    }

    @Test
    void somethingElseNamedEtcdIsAUsageError() throws IOException {
        script(dir, "etcd", "echo 'usage: not really etcd'");
        fakeTool(dir, "etcdctl");

        assertThatThrownBy(() -> EtcdBinaries.locate(Optional.of(dir), ""))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE))
                .hasMessageContaining("not really etcd");
    }

    @Test
    void aNonExecutableFileIsNotFound() throws IOException {
        Files.writeString(dir.resolve("etcd"), "#!/bin/sh\n");

        assertThat(EtcdBinaries.find("etcd", Optional.of(dir), "")).isEmpty();
    }

    private static void fakeEtcd(Path bin, String version) throws IOException {
        script(bin, "etcd", "echo 'etcd Version: " + version + "'; echo 'Git SHA: x'; echo 'Go Version: go1.22.1'");
    }

    private static void fakeTool(Path bin, String name) throws IOException {
        script(bin, name, "exit 0");
    }

    private static void script(Path bin, String name, String body) throws IOException {
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
