package io.etcdworkers.restore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.restore.workercli.WorkerContext;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.testsupport.SwiftClient;
import io.etcdworkers.testsupport.SwiftServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture bucket of etcdbrctl v0.41.2 (what etcd-druid ships), copied into Swift as
 * etcdbrctl's Swift store writes it (each snapshot a dynamic large object: segments
 * {@code <name>/0000000001}... and a manifest; here of 64 KiB, so the full ones have several), restore with {@code --storage-provider openstack}
 * (etcd-druid's name) to exactly the source's state with the offline engine, and
 * {@code verify-backup --storage-provider Swift} accepts them. The Secret is laid out as
 * etcd-druid mounts it ({@code OPENSTACK_APPLICATION_CREDENTIALS}, one file per key); the account
 * comes from Keystone's catalog. One fixture and one engine, to keep the class short: the replay
 * engine and v0.23.0's bucket read the store through the same seam ({@code GcsRestoreIT},
 * {@code RestoreFixturesIT}). A compaction's upload is the segment writer that
 * {@code SwiftObjectStoreIT} tests; no compaction runs against Swift (another server start, about
 * 30 s of CI).
 */
@Timeout(300)
class SwiftRestoreIT {
    private static final String CONTAINER = "etcd-backups";
    private static final int DLO_SEGMENT = 64 * 1024;

    @TempDir
    static Path serverDir;
    static SwiftServer swift;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() {
        swift = SwiftServer.start(serverDir);
        swift.client().createContainer(CONTAINER);
        uploadAsEtcdbrctl(swift.client(), Fixtures.V0_41_2, Fixtures.bucket(Fixtures.V0_41_2, "gzip"));
    }

    @AfterAll
    static void stopServer() {
        if (swift != null) {
            swift.close();
        }
    }

    @Test
    void aFixtureInSwiftRestoresToTheSourceState() {
        Path dataDir = dir.resolve("data/new.etcd");

        CommandRun run = run("restore", Fixtures.V0_41_2, "--data-dir=" + dataDir, "--engine=offline",
                "--scratch-dir=" + dir.resolve("scratch"));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        JsonNode state = ExpectedState.stateJson(Fixtures.V0_41_2);
        assertThat(result.get("storageProvider").asText()).isEqualTo("Swift");
        assertThat(result.get("base").get("name").asText()).startsWith(Fixtures.V0_41_2 + "/v2/Full-");
        assertThat(result.get("finalRevision").asLong()).isEqualTo(3783);
        assertThat(result.get("keys").asLong()).isEqualTo(1264);
        assertThat(result.get("kvSha256").asText()).isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.get("metaSha256").asText()).isEqualTo(state.get("meta_sha256").asText());

        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(3783);
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys(Fixtures.V0_41_2));
        assertThat(dataDir.resolveSibling("new.etcd.part")).doesNotExist();
        assertThat(run.stdout() + run.stderr()).doesNotContain(SwiftServer.PASSWORD);
        Processes.awaitNoneMentioning(dir);
    }

    @Test
    void verifyBackupAcceptsAFixtureInSwift() {
        CommandRun run = run("verify-backup", Fixtures.V0_41_2);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("outcome").asText()).isEqualTo("succeeded");
        assertThat(run.result().get("storageProvider").asText()).isEqualTo("Swift");
        assertThat(run.result().get("lastRevision").asLong()).isEqualTo(3783);
        assertThat(run.result().get("badObjects").asLong()).isZero();
        assertThat(run.result().get("chainBreaks").asLong()).isZero();
    }

    private CommandRun run(String command, String fixture, String... extra) {
        Map<String, String> env = swift.env(dir.resolve("var/etcd-backup"));
        List<String> args = new ArrayList<>(List.of(command,
                "--storage-provider=" + (command.equals("restore") ? "openstack" : "Swift"),
                "--store-container=" + CONTAINER, "--store-prefix=" + fixture));
        args.addAll(List.of(extra));
        return CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env, dir, args.toArray(String[]::new));
    }

    /** Every snapshot a dynamic large object, as etcdbrctl's Swift store saves each one. */
    static void uploadAsEtcdbrctl(SwiftClient client, String prefix, Path localBucket) {
        try (Stream<Path> files = Files.list(localBucket.resolve("v2"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String key = prefix + "/v2/" + file.getFileName();
                client.putDynamicLargeObject(CONTAINER, key, Files.readAllBytes(file), DLO_SEGMENT);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
