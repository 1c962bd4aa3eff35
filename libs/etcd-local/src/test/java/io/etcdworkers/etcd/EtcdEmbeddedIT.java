package io.etcdworkers.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The real etcd 3.4 started on a data dir restored from the etcdbrctl fixture snapshot. */
@Timeout(180)
class EtcdEmbeddedIT {
    @TempDir
    Path tmp;

    private final EtcdBinaries binaries =
            EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), "");
    private final EtcdMember member = EtcdMember.onFreeLoopbackPort();

    @Test
    void servesTheRestoredSnapshotAndKeepsWritesAcrossRestarts() throws Exception {
        EmbeddedEtcdConfig config = restoredConfig(Optional.empty());
        long pid;
        try (EmbeddedEtcd etcd = EmbeddedEtcd.start(config)) {
            pid = etcd.pid();
            assertThat(etcd.clientEndpoint().toString()).matches("http://127\\.0\\.0\\.1:\\d+");
            assertThat(etcd.version()).isEqualTo(binaries.version());
            try (Client client = client(etcd)) {
                GetResponse all = count(client, "/");
                // The seed phase: 600 puts at revisions 2..601. The name says 601 and the db
                // agrees here: no write landed between etcdbrctl's revision read and the snapshot.
                assertThat(all.getCount()).isEqualTo(600);
                assertThat(count(client, "/registry/").getCount()).isEqualTo(600);
                assertThat(all.getHeader().getRevision()).isEqualTo(601);

                client.getKVClient()
                        .put(bytes("/restore-worker/probe"), bytes("written"))
                        .get(30, TimeUnit.SECONDS);
            }
            etcd.stop();
            assertThat(etcd.isAlive()).isFalse();
        }
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();

        try (EmbeddedEtcd again = EmbeddedEtcd.start(config);
                Client client = client(again)) {
            GetResponse probe =
                    client.getKVClient().get(bytes("/restore-worker/probe")).get(30, TimeUnit.SECONDS);
            assertThat(probe.getKvs())
                    .singleElement()
                    .satisfies(kv -> assertThat(kv.getValue().toString(UTF_8)).isEqualTo("written"));
            assertThat(probe.getHeader().getRevision()).isEqualTo(602);
        }
    }

    @Test
    void closeStopsEtcdDeletesItsLogAndKeepsTheDataDir() throws IOException {
        EmbeddedEtcdConfig config = restoredConfig(Optional.empty());
        EmbeddedEtcd etcd = EmbeddedEtcd.start(config);
        ProcessHandle handle = ProcessHandle.of(etcd.pid()).orElseThrow();
        assertThat(handle.info().command())
                .hasValueSatisfying(c -> assertThat(c).endsWith("etcd"));
        // The orphan guard's watcher runs as etcd's child until etcd ends.
        assertThat(handle.children()).hasSize(1);
        Path logFile = etcd.logFile();
        assertThat(logFile).exists();

        etcd.close();

        assertThat(handle.isAlive()).isFalse();
        assertThat(etcd.isAlive()).isFalse();
        assertThat(logFile.getParent()).doesNotExist();
        assertThat(config.dataDir().resolve("member/snap/db")).isRegularFile();
        etcd.close();
    }

    /**
     * The worker's client runs on an event loop of its own and ends it on close. gRPC's shared
     * loop outlives its last channel by a second with its thread in {@code epoll_wait}, native
     * code, and the JVM's exit then waited 300 ms for that thread on every run.
     */
    @Test
    void theGrpcClientEndsItsEventLoopThreadOnClose() throws Exception {
        EmbeddedEtcdConfig config = restoredConfig(Optional.empty());
        try (EmbeddedEtcd etcd = EmbeddedEtcd.start(config)) {
            EtcdGrpcClient client = EtcdGrpcClient.connect(etcd.clientEndpoint(), Duration.ofSeconds(30));
            assertThat(client.status().getHeader().getRevision()).isEqualTo(601);
            assertThat(clientLoopThreads()).isNotEmpty();

            client.close();

            for (Thread thread : clientLoopThreads()) {
                thread.join(5_000);
            }
            assertThat(clientLoopThreads()).isEmpty();
        }
    }

    private static List<Thread> clientLoopThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("etcd-grpc-") && t.isAlive())
                .toList();
    }

    @Test
    void etcdGetsAnEmptyEnvironmentExceptTheGoGcItWasGiven() throws Exception {
        EmbeddedEtcdConfig config = restoredConfig(Optional.empty());
        try (EmbeddedEtcd plain = EmbeddedEtcd.start(config)) {
            assertThat(environ(plain.pid())).isEmpty();
        }
        try (EmbeddedEtcd tight = EmbeddedEtcd.start(config.withGoGc(25))) {
            assertThat(environ(tight.pid())).containsExactly("GOGC=25");
        }
    }

    private static List<String> environ(long pid) throws IOException {
        String raw = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ")), UTF_8);
        // the orphan guard's shell sets PWD; nothing else may come from the worker's environment
        return Arrays.stream(raw.split("\0"))
                .filter(e -> !e.isEmpty() && !e.startsWith("PWD="))
                .toList();
    }

    @Test
    void runsWithTheWalOnASeparateDir() throws Exception {
        EmbeddedEtcdConfig config = restoredConfig(Optional.of(tmp.resolve("wal")));

        try (EmbeddedEtcd etcd = EmbeddedEtcd.start(config);
                Client client = client(etcd)) {
            assertThat(count(client, "/").getCount()).isEqualTo(600);
        }
        assertThat(config.dataDir().resolve("member/wal")).doesNotExist();
    }

    @Test
    void aTakenPeerPortIsRetriedOnAnotherListenPort() throws Exception {
        EmbeddedEtcdConfig config = restoredConfig(Optional.empty());
        try (ServerSocket squatter =
                        new ServerSocket(member.peerPort(), 1, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}));
                EmbeddedEtcd etcd = EmbeddedEtcd.start(config);
                Client client = client(etcd)) {
            assertThat(squatter.isBound()).isTrue();
            assertThat(count(client, "/").getCount()).isEqualTo(600);
            assertThat(ProcessHandle.of(etcd.pid())
                            .orElseThrow()
                            .info()
                            .arguments()
                            .orElseThrow())
                    .contains("--initial-advertise-peer-urls=" + member.peerUrl())
                    .doesNotContain("--listen-peer-urls=" + member.peerUrl());
        }
    }

    @Test
    void anEtcdThatCannotStartReportsItsLogAndLeavesNoProcess() throws IOException {
        EmbeddedEtcdConfig config = restoredConfig(Optional.empty());
        Files.write(config.dataDir().resolve("member/snap/db"), new byte[64 * 1024]);

        assertThatThrownBy(() -> EmbeddedEtcd.start(config))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ETCD_FAILURE))
                .hasMessageContaining("exited with code")
                .hasMessageContaining("failed to open database")
                .hasMessageNotContaining("goroutine");
        assertThat(etcdProcessesOn(config.dataDir())).isZero();
        assertThat(config.scratchDir()).isEmptyDirectory();
    }

    @Test
    void aDirWithoutAMemberIsRefusedBeforeEtcdCouldInitialiseIt() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        var config = EmbeddedEtcdConfig.defaults(binaries, member, empty, tmp.resolve("scratch"));

        assertThatThrownBy(() -> EmbeddedEtcd.start(config))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ETCD_FAILURE))
                .hasMessageContaining("no member/ dir");
        assertThat(empty).isEmptyDirectory();
    }

    /** A measurement printed for the record, not asserted: start-to-healthy time and the child's RSS. */
    @Test
    void measuresStartupAndResidentMemory() throws Exception {
        EmbeddedEtcdConfig config = restoredConfig(Optional.empty());
        for (int run = 1; run <= 3; run++) {
            long t0 = System.nanoTime();
            try (EmbeddedEtcd etcd = EmbeddedEtcd.start(config)) {
                long ms = (System.nanoTime() - t0) / 1_000_000;
                String rss = Files.readAllLines(Path.of("/proc/" + etcd.pid() + "/status")).stream()
                        .filter(l -> l.startsWith("VmRSS:"))
                        .findFirst()
                        .orElse("VmRSS: ?")
                        .replaceAll("\\s+", " ");
                System.out.printf("MEASURE etcd %s run %d: start-to-healthy %d ms, %s%n", etcd.version(), run, ms, rss);
            }
        }
    }

    private EmbeddedEtcdConfig restoredConfig(Optional<Path> walDir) {
        Path data = tmp.resolve("data");
        new SnapshotRestorer(binaries, tmp.resolve("scratch"), SnapshotRestorer.DEFAULT_TIMEOUT)
                .restore(new SnapshotRestorer.Request(EtcdTestEnvironment.fullSnapshot(), member, data, walDir, false));
        EmbeddedEtcdConfig config = EmbeddedEtcdConfig.defaults(binaries, member, data, tmp.resolve("scratch"));
        return walDir.map(config::withWalDir).orElse(config);
    }

    private static long etcdProcessesOn(Path dataDir) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info()
                        .arguments()
                        .map(a -> String.join(" ", a))
                        .orElse("")
                        .contains("--data-dir=" + dataDir))
                .count();
    }

    private static Client client(EmbeddedEtcd etcd) {
        return Client.builder().endpoints(etcd.clientEndpoint().toString()).build();
    }

    private static GetResponse count(Client client, String prefix) throws Exception {
        return client.getKVClient()
                .get(
                        bytes(prefix),
                        GetOption.builder().isPrefix(true).withCountOnly(true).build())
                .get(30, TimeUnit.SECONDS);
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, UTF_8);
    }
}
