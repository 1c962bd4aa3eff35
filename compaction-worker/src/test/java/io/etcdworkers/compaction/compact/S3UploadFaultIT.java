package io.etcdworkers.compaction.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.compaction.cli.CompactionWorkerCommand;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.FaultProxy;
import io.etcdworkers.testsupport.FaultProxy.Fault;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.Processes;
import io.etcdworkers.testsupport.S3Buckets;
import io.etcdworkers.testsupport.S3ProxyServer;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The compaction worker's upload through {@link FaultProxy} to a real S3 server: 503s on the
 * PUT are retried and the snapshot lands; a PUT that keeps failing ends with exit 20 and no
 * object (and no multipart upload) under any new name.
 */
@Timeout(300)
class S3UploadFaultIT {
    private static final String BUCKET = "backups";
    private static final String PREFIX = "etcd-main";
    private static final String NEW_FULL = ".*/" + PREFIX + "/v2/Full-00000000-00003656-.*";

    @TempDir
    Path dir;

    private CommandRun compact(S3ProxyServer s3, FaultProxy proxy) {
        return CommandRun.run(
                WorkerContext::new,
                CompactionWorkerCommand::run,
                S3Buckets.env(s3, s3.credential(), dir.resolve("secret")),
                dir,
                "compact",
                "--storage-provider=S3",
                "--store-container=" + BUCKET,
                "--store-prefix=" + PREFIX,
                "--store-endpoint-override=" + proxy.endpoint(),
                "--scratch-dir=" + dir.resolve("scratch"));
    }

    @Test
    void a503OnTheUploadIsRetriedAndTheSnapshotLands() {
        try (S3ProxyServer s3 = S3ProxyServer.start(dir.resolve("s3"));
                FaultProxy proxy = FaultProxy.start(s3.endpoint())) {
            s3.createBucket(BUCKET);
            S3Buckets.upload(s3, BUCKET, PREFIX, Fixtures.bucket("gzip"));
            proxy.inject(Fault.status(503), "PUT", NEW_FULL, 2);

            CommandRun run = compact(s3, proxy);

            assertThat(run.exitCode()).as(run.stderr()).isZero();
            String uploaded = run.result().get("uploaded").get("name").asText();
            assertThat(keys(s3)).hasSize(12).contains(uploaded);
            assertThat(proxy.faulted())
                    .extracting(FaultProxy.Faulted::fault)
                    .containsExactly("status 503", "status 503");
        }
    }

    @Test
    void anUploadThatKeepsFailingLeavesNoObjectAndExits20() throws IOException {
        try (S3ProxyServer s3 = S3ProxyServer.start(dir.resolve("s3"));
                FaultProxy proxy = FaultProxy.start(s3.endpoint())) {
            s3.createBucket(BUCKET);
            S3Buckets.upload(s3, BUCKET, PREFIX, Fixtures.bucket("gzip"));
            List<String> before = keys(s3);
            proxy.inject(Fault.status(503), "PUT", NEW_FULL, FaultProxy.ALWAYS);

            CommandRun run = compact(s3, proxy);

            assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ErrorCode.STORE_UNAVAILABLE.exitCode());
            assertThat(run.result().get("error").asText())
                    .contains(PREFIX + "/v2/Full-00000000-00003656-", "\"" + BUCKET + "\"", "HTTP 503");
            assertThat(keys(s3)).isEqualTo(before);
            assertThat(s3.client().listMultipartUploads(b -> b.bucket(BUCKET)).uploads())
                    .isEmpty();
            assertThat(proxy.faulted()).hasSize(5);
            Processes.awaitNoneMentioning(dir.resolve("scratch")); // S3Proxy itself runs under dir
            try (Stream<Path> scratch = Files.list(dir.resolve("scratch"))) {
                assertThat(scratch).as("scratch emptied").isEmpty();
            }
        }
    }

    private static List<String> keys(S3ProxyServer s3) {
        return s3.client().listObjectsV2Paginator(b -> b.bucket(BUCKET)).contents().stream()
                .map(S3Object::key)
                .sorted()
                .toList();
    }
}
