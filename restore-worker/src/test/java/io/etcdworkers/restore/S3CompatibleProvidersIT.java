package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.s3.S3CompatibleStoreConfigFactory;
import io.etcdworkers.store.s3.S3ObjectStore;
import io.etcdworkers.store.s3.S3StoreConfig;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.S3CompatibleSecrets;
import io.etcdworkers.testsupport.S3ProxyServer;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * OSS, ECS and OCS against a real S3 server (S3Proxy, started once), each with its own Secret
 * layout and endpoint rule ({@link S3CompatibleSecrets}): a multipart upload through each lands
 * whole and only on commit, and a wrong key fails naming provider, bucket and endpoint but not the
 * key. That the fixture restores through each with both engines and that a compaction's upload
 * lands and restores is {@code ProviderRestoreIT}'s and {@code ProviderCompactionIT}'s.
 */
@Timeout(300)
class S3CompatibleProvidersIT {
    private static final String BUCKET = "etcd-backups";
    private static final String PREFIX = "etcd-main";
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
    }

    @AfterAll
    static void stopServer() {
        if (s3 != null) {
            s3.close();
        }
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
                assertThat(store.list("uploads/" + provider + "/"))
                        .as("nothing before the commit")
                        .isEmpty();
                assertThat(writer.commit().size()).isEqualTo(content.length);
            }
            assertThat(store.list("uploads/" + provider + "/"))
                    .extracting(ObjectInfo::key, ObjectInfo::size)
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
        assertThat(run.result().get("error").asText())
                .contains(etcdbrctlName(flag) + " bucket \"" + BUCKET + "\" at " + s3.endpoint(), "access denied");
        assertThat(run.stdout() + run.stderr()).doesNotContain(WRONG_KEY);
    }

    private CommandRun run(String flag, String secret, String command, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                command, "--storage-provider=" + flag, "--store-container=" + BUCKET, "--store-prefix=" + PREFIX));
        args.addAll(List.of(extra));
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                env(etcdbrctlName(flag), secret),
                dir,
                args.toArray(String[]::new));
    }

    private static String etcdbrctlName(String flag) {
        return switch (flag) {
            case "alicloud", "OSS" -> "OSS";
            case "dell", "ECS" -> "ECS";
            default -> "OCS";
        };
    }

    /** The provider's Secret, in the layout {@link S3CompatibleSecrets} gives it, pointing at S3Proxy. */
    private Map<String, String> env(String provider, String secret) {
        return S3CompatibleSecrets.env(s3, provider, secret, dir);
    }
}
