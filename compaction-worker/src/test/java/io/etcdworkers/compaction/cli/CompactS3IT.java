package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.restore.workercli.WorkerContext;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.S3ProxyServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Compaction and restore against a real S3 server (S3Proxy, SigV4), with credentials passed the
 * way etcd-druid mounts them ({@code AWS_APPLICATION_CREDENTIALS_JSON}).
 */
@Timeout(300)
class CompactS3IT {
    private static final String BUCKET = "etcd-backups";
    private static final String PREFIX = "etcd-main";

    @TempDir
    Path dir;

    @Test
    void compactsAnS3BucketAndRestoresTheResultFromS3() throws IOException {
        try (S3ProxyServer s3 = S3ProxyServer.start(dir.resolve("s3"))) {
            s3.createBucket(BUCKET);
            upload(s3, Fixtures.bucket("lzw"));
            Path credentials = dir.resolve("credentials.json");
            Files.writeString(credentials, String.format("{\"accessKeyID\":\"%s\",\"secretAccessKey\":\"%s\","
                    + "\"region\":\"%s\",\"s3ForcePathStyle\":true}", s3.identity(), s3.credential(), s3.region().id()));
            Map<String, String> env = Map.of("PATH", System.getenv("PATH"),
                    "AWS_APPLICATION_CREDENTIALS_JSON", credentials.toString(), "STORAGE_CONTAINER", BUCKET);
            String[] store = {"--storage-provider=S3", "--store-prefix=" + PREFIX,
                "--store-endpoint-override=" + s3.endpoint(), "--scratch-dir=" + dir.resolve("scratch")};

            CommandRun compact = CommandRun.run(WorkerContext::new, (c, a) -> CompactionWorkerCommand.run(c, a), env, dir,
                    concat("compact", store));

            assertThat(compact.exitCode()).as(compact.stderr()).isZero();
            JsonNode uploaded = compact.result().get("uploaded");
            assertThat(uploaded.get("name").asText()).startsWith(PREFIX + "/v2/Full-00000000-00003656-").endsWith(".Z");
            List<String> keys = s3.client().listObjectsV2Paginator(b -> b.bucket(BUCKET)).contents().stream()
                    .map(S3Object::key).toList();
            assertThat(keys).hasSize(12).contains(uploaded.get("name").asText());
            assertThat(s3.client().listMultipartUploads(b -> b.bucket(BUCKET)).uploads()).isEmpty();

            Path dataDir = dir.resolve("restored");
            CommandRun restore = CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env, dir,
                    concat("restore", concat("--data-dir=" + dataDir, store)));
            assertThat(restore.exitCode()).as(restore.stderr()).isZero();
            assertThat(restore.result().get("base").get("name").asText()).isEqualTo(uploaded.get("name").asText());
            assertThat(restore.result().get("metaSha256").asText())
                    .isEqualTo(ExpectedState.stateJson().get("meta_sha256").asText());
            assertThat(compact.stdout() + compact.stderr() + restore.stdout() + restore.stderr())
                    .doesNotContain(s3.credential());
        }
    }

    private static void upload(S3ProxyServer s3, Path bucket) throws IOException {
        try (Stream<Path> files = Files.list(bucket.resolve("v2"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                s3.client().putObject(b -> b.bucket(BUCKET).key(PREFIX + "/v2/" + file.getFileName()),
                        RequestBody.fromFile(file));
            }
        }
    }

    private static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
