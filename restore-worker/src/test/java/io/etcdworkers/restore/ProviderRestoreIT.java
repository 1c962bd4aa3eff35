package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.testsupport.ProviderBucket;
import io.etcdworkers.testsupport.ProviderServers;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every provider that has a server here (S3, ABS, GCS, Swift, and OSS, ECS, OCS through the S3
 * store; {@link ProviderServers}, each started once for the class): etcdbrctl v0.41.2's fixture
 * bucket (what etcd-druid ships), copied into it as etcdbrctl writes there, restores with both
 * engines to exactly the source's state (the result's digests and what a real etcd serves from the
 * data dir, against {@code expected/}), and {@code verify-backup} accepts it. The worker gets
 * etcd-druid's spelling of the provider and its Secret as etcd-druid mounts it; the output never
 * holds the Secret's secret.
 *
 * <p>One fixture: the store lists and reads v0.23.0's bucket as it does this one, and what differs
 * between them (codecs, one chain or two) is the engines', which {@code RestoreFixturesIT},
 * {@code OfflineRestoreIT} and {@code EtcdbrV041FixtureIT} test on a Local bucket with both etcd
 * versions. Each provider's own rules and errors stay in its store ITs and
 * {@code S3CompatibleProvidersIT}.
 */
@Timeout(300)
class ProviderRestoreIT {
    private static final String FIXTURE = Fixtures.V0_41_2;
    /** The newer of the fixture's two full snapshots: the base of every restore. */
    private static final String BASE = "/v2/Full-00000000-00002037-1796115300.gz";

    static final List<String> PROVIDERS = ProviderServers.PROVIDERS;

    @TempDir
    static Path serverDir;

    static ProviderServers servers;
    static final Set<String> uploaded = new HashSet<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void servers() {
        servers = new ProviderServers(serverDir);
    }

    @AfterAll
    static void stopServers() {
        if (servers != null) {
            servers.close();
        }
    }

    static Stream<Arguments> providersAndEngines() {
        return PROVIDERS.stream().flatMap(p -> Stream.of(Arguments.of(p, "offline"), Arguments.of(p, "replay")));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("providersAndEngines")
    void theFixtureRestoresToTheSourceState(String provider, String engine) {
        ProviderBucket bucket = bucketWithFixture(provider);
        Path dataDir = dir.resolve("data/new.etcd");

        CommandRun run = run(
                bucket,
                "restore",
                bucket.druidName(),
                "--data-dir=" + dataDir,
                "--engine=" + engine,
                "--scratch-dir=" + dir.resolve("scratch"));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        JsonNode state = ExpectedState.stateJson(FIXTURE);
        assertThat(result.get("storageProvider").asText()).isEqualTo(provider);
        assertThat(result.get("engine").asText()).isEqualTo(engine);
        assertThat(result.get("base").get("name").asText()).isEqualTo(prefix(provider) + BASE);
        assertThat(result.get("deltas").asInt()).isEqualTo(7);
        assertThat(result.get("finalRevision").asLong())
                .isEqualTo(state.get("revision").asLong());
        assertThat(result.get("keys").asLong()).isEqualTo(state.get("keys").asLong());
        assertThat(result.get("kvSha256").asText())
                .isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.get("metaSha256").asText())
                .isEqualTo(state.get("meta_sha256").asText());

        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(state.get("revision").asLong());
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys(FIXTURE));
        assertThat(served.leaseIds()).containsExactlyInAnyOrder(Fixtures.V0_41_2_LEASE_A, Fixtures.V0_41_2_LEASE_C);
        assertThat(dataDir.resolveSibling("new.etcd.part")).doesNotExist();
        assertThat(list(dir.resolve("scratch"))).as("scratch emptied").isEmpty();
        assertThat(run.stdout() + run.stderr()).doesNotContain(bucket.secret());
        Processes.awaitNoneMentioning(dir);
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("PROVIDERS")
    void verifyBackupAcceptsTheFixture(String provider) {
        ProviderBucket bucket = bucketWithFixture(provider);

        // etcdbrctl's spelling here, etcd-druid's for the restores: both are taken
        CommandRun run = run(bucket, "verify-backup", provider);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        assertThat(result.get("outcome").asText()).isEqualTo("succeeded");
        assertThat(result.get("storageProvider").asText()).isEqualTo(provider);
        assertThat(result.get("lastRevision").asLong())
                .isEqualTo(ExpectedState.stateJson(FIXTURE).get("revision").asLong());
        assertThat(result.get("badObjects").asLong()).isZero();
        assertThat(result.get("chainBreaks").asLong()).isZero();
        assertThat(run.stdout() + run.stderr()).doesNotContain(bucket.secret());
    }

    /** The provider's bucket, the fixture in it under {@link #prefix} (copied once per class). */
    private static synchronized ProviderBucket bucketWithFixture(String provider) {
        ProviderBucket bucket = servers.bucket(provider);
        if (uploaded.add(provider)) {
            bucket.upload(prefix(provider), Fixtures.bucket(FIXTURE, "gzip"));
        }
        return bucket;
    }

    /** A prefix per provider: OSS, ECS, OCS and S3 share S3Proxy's bucket. */
    private static String prefix(String provider) {
        return provider.toLowerCase(Locale.ROOT) + "/" + FIXTURE;
    }

    private CommandRun run(ProviderBucket bucket, String command, String spelling, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                command,
                "--storage-provider=" + spelling,
                "--store-container=" + bucket.container(),
                "--store-prefix=" + prefix(bucket.provider())));
        args.addAll(bucket.flags());
        args.addAll(List.of(extra));
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                bucket.env(dir.resolve("secret")),
                dir,
                args.toArray(String[]::new));
    }

    private static List<Path> list(Path path) {
        try (Stream<Path> files = Files.list(path)) {
            return files.toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
