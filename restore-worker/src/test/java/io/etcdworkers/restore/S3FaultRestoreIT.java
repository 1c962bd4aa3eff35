package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The restore against a real S3 server (S3Proxy) behind {@link FaultProxy}: what the SDK retries
 * (503s, a reset, an answer slower than the request timeout) ends in the exact expected state;
 * what keeps failing ends with the store's exit code, naming the object, in bounded time, clean.
 */
@Timeout(300)
class S3FaultRestoreIT {
    private static final String BUCKET = "backups";
    private static final String PREFIX = "etcd-main";
    private static final String FULL = PREFIX + "/v2/Full-00000000-00000601-1795986606.gz";
    private static final String DELTA_3 = PREFIX + "/v2/Incr-00001751-00002341-1795986610.gz";
    private static final String DELTA_5 = PREFIX + "/v2/Incr-00002921-00003499-1795986611.gz";

    @TempDir
    static Path s3Dir;

    private static S3ProxyServer s3;

    @TempDir
    Path dir;

    private FaultProxy proxy;
    private Path target;

    @BeforeAll
    static void startS3() {
        s3 = S3ProxyServer.start(s3Dir);
        s3.createBucket(BUCKET);
        S3Buckets.upload(s3, BUCKET, PREFIX, Fixtures.bucket("gzip"));
    }

    @AfterAll
    static void stopS3() {
        s3.close();
    }

    @BeforeEach
    void startProxy() {
        proxy = FaultProxy.start(s3.endpoint());
        target = dir.resolve("data/new.etcd");
    }

    @AfterEach
    void stopProxy() {
        proxy.close();
    }

    private CommandRun restore(String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--storage-provider=S3",
                "--store-container=" + BUCKET,
                "--store-prefix=" + PREFIX,
                "--store-endpoint-override=" + proxy.endpoint(),
                "--data-dir=" + target,
                "--scratch-dir=" + dir.resolve("scratch")));
        args.addAll(List.of(extra));
        Map<String, String> env = S3Buckets.env(s3, s3.credential(), dir.resolve("secret"));
        return CommandRun.run(WorkerContext::new, RestoreWorkerCommand::run, env, dir, args.toArray(String[]::new));
    }

    private static String object(String key) {
        return ".*/" + BUCKET + "/" + Pattern.quote(key) + "(\\?.*)?";
    }

    @Test
    void transientFaultsAreRetriedAndTheRestoreIsExact() {
        proxy.injectNext(Fault.status(503), 2) // the listing
                .inject(Fault.status(500), "GET", object(FULL), 2)
                .inject(Fault.reset(), "GET", object(DELTA_3), 1)
                .inject(Fault.delay(Duration.ofSeconds(4)), "GET", object(DELTA_5), 1);

        CommandRun run = restore("--store-request-timeout=2s");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        assertThat(result.get("metaSha256").asText())
                .isEqualTo(ExpectedState.stateJson().get("meta_sha256").asText());
        assertThat(result.get("kvSha256").asText())
                .isEqualTo(ExpectedState.stateJson().get("kv_sha256").asText());
        assertThat(proxy.faulted())
                .extracting(FaultProxy.Faulted::fault)
                .containsExactlyInAnyOrder(
                        "status 503", "status 503", "status 500", "status 500", "reset", "delay 4000ms");
        assertThat(target.resolve("member/snap/db")).exists();
    }

    @Test
    void aStoreThatKeepsAnswering503IsUnavailableNamingTheObject() throws IOException {
        proxy.inject(Fault.status(503), "GET", object(DELTA_3), FaultProxy.ALWAYS);

        long started = System.nanoTime();
        CommandRun run = restore();

        assertFailedCleanly(run, ErrorCode.STORE_UNAVAILABLE, DELTA_3, "\"" + BUCKET + "\"", "HTTP 503");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("5 tries with capped backoff")
                .isLessThan(Duration.ofSeconds(90));
        assertThat(proxy.faulted()).as("every try reached the store").hasSize(5);
    }

    @Test
    void anAnswerSlowerThanTheRequestTimeoutFailsCleanlyInBoundedTime() throws IOException {
        proxy.inject(Fault.delay(Duration.ofSeconds(30)), "GET", object(DELTA_5), FaultProxy.ALWAYS);

        long started = System.nanoTime();
        CommandRun run = restore("--store-request-timeout=2s");

        assertFailedCleanly(run, ErrorCode.STORE_UNAVAILABLE, DELTA_5, "\"" + BUCKET + "\"");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("5 tries of 2 s plus backoff, not 5 x 30 s")
                .isLessThan(Duration.ofSeconds(60));
        assertThat(proxy.faulted()).hasSize(5);
    }

    /**
     * A body cut short is never taken as valid. The SDK cannot retry it (the response was
     * already handed over), so the worker reads the delta again, up to 3 times: one cut costs a
     * second download and the restore is exact.
     */
    @Test
    void aBodyCutShortOnceIsReadAgainAndTheRestoreIsExact() {
        proxy.inject(Fault.cutBody(), "GET", object(DELTA_3), 1);

        CommandRun run = restore();

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("metaSha256").asText())
                .isEqualTo(ExpectedState.stateJson().get("meta_sha256").asText());
        assertThat(proxy.faulted()).as("the cut happened").hasSize(1);
        assertThat(proxy.requests().stream().filter(r -> r.startsWith("GET") && r.contains(DELTA_3)))
                .as("and the delta was read again")
                .hasSize(2);
    }

    /** A body that keeps ending early fails with exit 15, retryable, naming the object and the byte counts. */
    @Test
    void aBodyAlwaysCutShortIsATruncatedObjectNeverAValidOne() throws IOException {
        proxy.inject(Fault.cutBody(), "GET", object(DELTA_3), FaultProxy.ALWAYS);

        CommandRun run = restore();

        assertFailedCleanly(run, ErrorCode.TRUNCATED_OBJECT, DELTA_3, "\"" + BUCKET + "\"", "of 45692 bytes");
        assertThat(run.result().get("retryable").asBoolean()).isTrue();
        assertThat(proxy.faulted()).as("read 3 times").hasSize(3);
    }

    private void assertFailedCleanly(CommandRun run, ErrorCode code, String... named) throws IOException {
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(code.exitCode());
        assertThat(run.result().get("errorCode").asText()).isEqualTo(code.name());
        assertThat(run.result().get("error").asText()).contains(named);
        Processes.awaitNoneMentioning(dir);
        assertThat(target).doesNotExist();
        assertThat(target.resolveSibling("new.etcd.part")).doesNotExist();
        try (Stream<Path> scratch = Files.list(dir.resolve("scratch"))) {
            assertThat(scratch).as("scratch emptied").isEmpty();
        }
    }
}
