package io.etcdworkers.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The command lines of the restore tool, the server and the orphan guard: pure functions, table tests. */
@Timeout(10)
class EtcdArgvTest {
    private static final Path BIN = Path.of("/opt/etcd");
    private static final EtcdBinaries V34 = new EtcdBinaries(
            BIN.resolve("etcd"), Optional.of(BIN.resolve("etcdctl")), Optional.empty(), new EtcdVersion(3, 4, 23));
    private static final EtcdBinaries V35 = new EtcdBinaries(
            BIN.resolve("etcd"),
            Optional.of(BIN.resolve("etcdctl")),
            Optional.of(BIN.resolve("etcdutl")),
            new EtcdVersion(3, 5, 17));
    private static final EtcdMember MEMBER = new EtcdMember("restore", URI.create("http://127.0.0.1:40001"), "tok-1");
    private static final Path SNAP = Path.of("/scratch/full.db");
    private static final Path DATA = Path.of("/scratch/data.part");
    private static final Path WAL = Path.of("/dev/shm/wal");

    static Stream<Arguments> restoreCases() {
        List<String> common = List.of(
                "snapshot",
                "restore",
                "/scratch/full.db",
                "--name=restore",
                "--initial-cluster=restore=http://127.0.0.1:40001",
                "--initial-cluster-token=tok-1",
                "--initial-advertise-peer-urls=http://127.0.0.1:40001",
                "--data-dir=/scratch/data.part");
        return Stream.of(
                Arguments.of(
                        "3.4 etcdctl",
                        V34,
                        Optional.empty(),
                        false,
                        concat(List.of("/opt/etcd/etcdctl"), common, List.of())),
                Arguments.of(
                        "3.5 etcdutl, skip hash",
                        V35,
                        Optional.empty(),
                        true,
                        concat(List.of("/opt/etcd/etcdutl"), common, List.of("--skip-hash-check=true"))),
                Arguments.of(
                        "3.4 with WAL dir",
                        V34,
                        Optional.of(WAL),
                        false,
                        concat(List.of("/opt/etcd/etcdctl"), common, List.of("--wal-dir=/dev/shm/wal"))),
                Arguments.of(
                        "3.5 with WAL dir, skip hash",
                        V35,
                        Optional.of(WAL),
                        true,
                        concat(
                                List.of("/opt/etcd/etcdutl"),
                                common,
                                List.of("--wal-dir=/dev/shm/wal", "--skip-hash-check=true"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("restoreCases")
    void restoreArgv(
            String name, EtcdBinaries binaries, Optional<Path> walDir, boolean skipHash, List<String> expected) {
        var request = new SnapshotRestorer.Request(SNAP, MEMBER, DATA, walDir, skipHash);

        assertThat(SnapshotRestorer.argv(binaries, request)).containsExactlyElementsOf(expected);
    }

    static Stream<Arguments> serverCases() {
        List<String> head = List.of("/opt/etcd/etcd", "--name=restore", "--data-dir=/scratch/data.part");
        List<String> body = List.of(
                "--listen-client-urls=http://127.0.0.1:41000",
                "--advertise-client-urls=http://127.0.0.1:41000",
                "--listen-peer-urls=http://127.0.0.1:42000",
                "--initial-advertise-peer-urls=http://127.0.0.1:40001",
                "--initial-cluster=restore=http://127.0.0.1:40001",
                "--initial-cluster-token=tok-1",
                "--auto-compaction-retention=0",
                "--quota-backend-bytes=8589934592",
                "--max-request-bytes=10485760",
                "--max-txn-ops=1024",
                "--snapshot-count=100000",
                "--logger=zap",
                "--log-level=warn",
                "--log-outputs=stderr",
                "--enable-pprof=false");
        return Stream.of(
                Arguments.of("3.4: no --unsafe-no-fsync", V34, Optional.empty(), concat(head, body, List.of())),
                Arguments.of(
                        "3.5: --unsafe-no-fsync",
                        V35,
                        Optional.empty(),
                        concat(head, body, List.of("--unsafe-no-fsync=true"))),
                Arguments.of(
                        "3.4 with WAL dir",
                        V34,
                        Optional.of(WAL),
                        concat(concat(head, List.of("--wal-dir=/dev/shm/wal"), List.of()), body, List.of())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serverCases")
    void serverArgv(String name, EtcdBinaries binaries, Optional<Path> walDir, List<String> expected) {
        EmbeddedEtcdConfig config = EmbeddedEtcdConfig.defaults(binaries, MEMBER, DATA, Path.of("/scratch"))
                .withRequestLimits(10_485_760, 1024);
        if (walDir.isPresent()) {
            config = config.withWalDir(walDir.get());
        }

        List<String> argv = EmbeddedEtcd.etcdArgv(config, 41000, 42000);

        assertThat(argv).containsExactlyElementsOf(expected);
        assertThat(argv).noneMatch(a -> a.startsWith("--listen-metrics-urls"));
        assertThat(argv).filteredOn(a -> a.contains("://")).allMatch(a -> a.contains("://127.0.0.1:"));
    }

    @Test
    void onlyAVerifyingEtcdTicksFast() {
        EmbeddedEtcdConfig config = EmbeddedEtcdConfig.defaults(V34, MEMBER, DATA, Path.of("/scratch"));

        assertThat(EmbeddedEtcd.etcdArgv(config, 41000, 42000))
                .noneMatch(a -> a.startsWith("--heartbeat-interval") || a.startsWith("--election-timeout"));
        assertThat(EmbeddedEtcd.etcdArgv(config.withFastElection(), 41000, 42000))
                .contains("--heartbeat-interval=10", "--election-timeout=100");
    }

    @Test
    void aDirRestoredForSeveralMembersRunsAsANewClusterOnlyWhenTold() {
        EmbeddedEtcdConfig config = EmbeddedEtcdConfig.defaults(V35, MEMBER, DATA, Path.of("/scratch"));

        assertThat(EmbeddedEtcd.etcdArgv(config, 41000, 42000)).noneMatch(a -> a.startsWith("--force-new-cluster"));
        assertThat(EmbeddedEtcd.etcdArgv(config.withForceNewCluster(), 41000, 42000))
                .containsOnlyOnce("--force-new-cluster=true")
                .contains("--initial-cluster=restore=http://127.0.0.1:40001");
    }

    @Test
    void guardExecsTheCommandUnchanged() {
        List<String> wrapped = OrphanGuard.wrap(List.of("/opt/etcd/etcd", "--name=a b"));

        assertThat(wrapped)
                .startsWith("/bin/sh", "-c", OrphanGuard.SCRIPT, "etcd-orphan-guard")
                .endsWith("/opt/etcd/etcd", "--name=a b");
        assertThat(OrphanGuard.SCRIPT).contains("exec \"$@\"");
    }

    @Test
    void memberRejectsWhatWouldBreakNameUrlLists() {
        assertThat(MEMBER.initialCluster()).isEqualTo("restore=http://127.0.0.1:40001");
        assertThatThrownBy(() -> new EtcdMember("a=b", URI.create("http://127.0.0.1:1"), "t"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EtcdMember("a", URI.create("http://127.0.0.1:1,http://x:2"), "t"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EtcdMember("a", URI.create("https://127.0.0.1"), "t"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void hashTrailerRuleIsEtcds() {
        assertThat(SnapshotRestorer.hasHashTrailer(483_360)).isTrue();
        assertThat(SnapshotRestorer.hasHashTrailer(483_328)).isFalse();
        assertThat(SnapshotRestorer.hasHashTrailer(32)).isTrue();
    }

    private static List<String> concat(List<String> a, List<String> b, List<String> c) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        all.addAll(c);
        return all;
    }
}
