package io.etcdworkers.restore.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.restore.store.ObjectInfo;
import io.etcdworkers.restore.store.ObjectStore;
import io.etcdworkers.restore.store.ObjectWriter;
import io.etcdworkers.restore.store.S3CompatibleStoreConfigFactory;
import io.etcdworkers.restore.store.S3ObjectStore;
import io.etcdworkers.restore.store.S3StoreConfig;
import io.etcdworkers.restore.workercli.WorkerContext;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.S3Buckets;
import io.etcdworkers.testsupport.S3ProxyServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * OSS, ECS and OCS against a real S3 server (S3Proxy, started once): etcdbrctl v0.41.2's fixture
 * bucket restores through each with exactly the source's state, a multipart upload through each
 * lands whole and only on commit, and a wrong key fails naming provider, bucket and endpoint but
 * not the key. Each provider gets its own Secret layout and exercises one of its endpoint rules:
 * <ul>
 *   <li>OSS: the mounted directory, {@code storageEndpoint} without a scheme (http, as etcdbrctl's
 *       OSS SDK) on an IP address (path-style);</li>
 *   <li>ECS: the variables etcd-druid sets;</li>
 *   <li>OCS: the JSON file, an {@code https://} endpoint with {@code disableSSL} (plain HTTP: S3Proxy
 *       speaks nothing else here, so the rule is what makes it work).</li>
 * </ul>
 */
@Timeout(300)
class S3CompatibleRestoreIT {
    private static final String BUCKET = "etcd-backups";
    private static final String FIXTURE = Fixtures.V0_41_2;
    private static final String WRONG_KEY = "wrong-key-never-printed-5e2a";

    @TempDir
    static Path serverDir;
    static S3ProxyServer s3;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() {
        s3 = S3ProxyServer.start(serverDir);
        s3.createBucket(BUCKET);
        S3Buckets.upload(s3, BUCKET, FIXTURE, Fixtures.bucket(FIXTURE, "gzip"));
    }

    @AfterAll
    static void stopServer() {
        if (s3 != null) {
            s3.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"alicloud", "ECS", "openshift"})
    void theFixtureRestoresThroughTheProviderToTheSourceState(String flag) {
        Path dataDir = dir.resolve("data/new.etcd");

        CommandRun run = run(flag, s3.credential(), "restore", "--data-dir=" + dataDir, "--engine=offline",
                "--scratch-dir=" + dir.resolve("scratch"));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        JsonNode state = ExpectedState.stateJson(FIXTURE);
        assertThat(result.get("storageProvider").asText()).isEqualTo(etcdbrctlName(flag));
        assertThat(result.get("base").get("name").asText()).startsWith(FIXTURE + "/v2/Full-");
        assertThat(result.get("finalRevision").asLong()).isEqualTo(3783);
        assertThat(result.get("kvSha256").asText()).isEqualTo(state.get("kv_sha256").asText());
        assertThat(result.get("metaSha256").asText()).isEqualTo(state.get("meta_sha256").asText());
        assertThat(dataDir.resolve("member/snap/db")).exists();
        assertThat(run.stdout() + run.stderr()).doesNotContain(s3.credential());
    }

    @ParameterizedTest
    @ValueSource(strings = {"OSS", "ECS", "OCS"})
    void aMultipartUploadLandsWholeAndOnlyOnCommit(String provider) throws IOException {
        byte[] content = new byte[(int) S3StoreConfig.MIN_PART_SIZE + 1024 * 1024];
        new Random(provider.hashCode()).nextBytes(content);
        String key = "uploads/" + provider + "/Full-00000000-00000001-1";
        Map<String, String> env = env(provider, s3.credential());
        S3CompatibleStoreConfigFactory factory = new S3CompatibleStoreConfigFactory(env);
        S3StoreConfig config = switch (provider) {
            case "OSS" -> factory.oss(Optional.of(BUCKET), Optional.empty());
            case "ECS" -> factory.ecs(Optional.of(BUCKET), Optional.empty());
            default -> factory.ocs(Optional.of(BUCKET), Optional.empty());
        };

        try (ObjectStore store = new S3ObjectStore(config.withPartSize(S3StoreConfig.MIN_PART_SIZE))) {
            try (ObjectWriter writer = store.create(key)) {
                writer.out().write(content);
                assertThat(store.list("uploads/" + provider + "/")).as("nothing before the commit").isEmpty();
                assertThat(writer.commit().size()).isEqualTo(content.length);
            }
            assertThat(store.list("uploads/" + provider + "/")).extracting(ObjectInfo::key, ObjectInfo::size)
                    .containsExactly(tuple(key, (long) content.length));
            try (InputStream in = store.open(key)) {
                assertThat(in.readAllBytes()).isEqualTo(content);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"OSS", "dell", "OCS"})
    void aWrongKeyFailsNamingProviderBucketAndEndpointButNotTheKey(String flag) {
        CommandRun run = run(flag, WRONG_KEY, "verify-backup");

        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.STORE_NOT_FOUND.exitCode());
        assertThat(run.result().get("error").asText()).contains(etcdbrctlName(flag) + " bucket \"" + BUCKET
                + "\" at " + s3.endpoint(), "access denied");
        assertThat(run.stdout() + run.stderr()).doesNotContain(WRONG_KEY);
    }

    private CommandRun run(String flag, String secret, String command, String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of(command, "--storage-provider=" + flag,
                "--store-container=" + BUCKET, "--store-prefix=" + FIXTURE));
        args.addAll(List.of(extra));
        return CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env(etcdbrctlName(flag), secret), dir,
                args.toArray(String[]::new));
    }

    private static String etcdbrctlName(String flag) {
        return switch (flag) {
            case "alicloud", "OSS" -> "OSS";
            case "dell", "ECS" -> "ECS";
            default -> "OCS";
        };
    }

    /** The provider's Secret, in the layout this test gives it, pointing at S3Proxy. */
    private Map<String, String> env(String provider, String secret) {
        String hostPort = s3.endpoint().getAuthority();
        Map<String, String> env = new HashMap<>(Map.of("PATH", System.getenv("PATH")));
        try {
            switch (provider) {
                case "OSS" -> {
                    Path mounted = Files.createDirectories(dir.resolve("oss-secret"));
                    Files.writeString(mounted.resolve("accessKeyID"), s3.identity() + "\n");
                    Files.writeString(mounted.resolve("accessKeySecret"), secret + "\n");
                    Files.writeString(mounted.resolve("storageEndpoint"), hostPort + "\n");
                    env.put("ALICLOUD_APPLICATION_CREDENTIALS", mounted.toString());
                }
                case "ECS" -> {
                    env.put("ECS_ENDPOINT", s3.endpoint().toString());
                    env.put("ECS_ACCESS_KEY_ID", s3.identity());
                    env.put("ECS_SECRET_ACCESS_KEY", secret);
                }
                default -> {
                    Path json = Files.createDirectories(dir.resolve("ocs-secret")).resolve("ocs.json");
                    Files.writeString(json, "{\"accessKeyID\":\"" + s3.identity() + "\",\"secretAccessKey\":\"" + secret
                            + "\",\"endpoint\":\"https://" + hostPort + "\",\"region\":\"" + s3.region().id()
                            + "\",\"disableSSL\":true}");
                    env.put("OPENSHIFT_APPLICATION_CREDENTIALS_JSON", json.toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return env;
    }
}
