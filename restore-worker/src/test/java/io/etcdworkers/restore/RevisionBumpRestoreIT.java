package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A point-in-time restore is bumped past the bucket's latest revision by default, as etcdutl's
 * {@code --bump-revision N --mark-compacted} would: the placed data dir opens at the bumped
 * revision with the point in time's keyspace (original create and mod revisions), compacted at the
 * bumped revision; {@code --bump-revision=0} leaves it at the point in time; the two flags go
 * together, as etcdutl requires.
 */
@Timeout(600)
class RevisionBumpRestoreIT {
    /** The v0.23.0 fixture's newest delta ends here (Incr-00003647-00003656). */
    private static final long BUCKET_LATEST = 3656;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"offline", "replay"})
    void aPointInTimeRestoreIsBumpedPastTheBucketsLatestRevision(String engine) {
        JsonNode checkpoint = ExpectedState.stateJson(Fixtures.V0_23_0)
                .get("checkpoints_source")
                .get(2);
        long point = checkpoint.get("revision").asLong();
        Path dataDir = dir.resolve("data-" + engine);

        CommandRun run = restore(dataDir, engine, "--to-revision", Long.toString(point));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode bump = run.result().get("revisionBump");
        assertThat(run.result().get("finalRevision").asLong()).isEqualTo(point);
        assertThat(bump.get("revision").asLong()).isEqualTo(BUCKET_LATEST + BumpSetting.MARGIN);
        assertThat(bump.get("latestRevision").asLong()).isLessThanOrEqualTo(point);
        assertThat(bump.get("amount").asLong())
                .isEqualTo(BUCKET_LATEST
                        + BumpSetting.MARGIN
                        - bump.get("latestRevision").asLong());
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("serve-" + engine));
        assertThat(served.revision()).isEqualTo(BUCKET_LATEST + BumpSetting.MARGIN);
        assertThat(served.compactRevision()).isEqualTo(BUCKET_LATEST + BumpSetting.MARGIN);
        assertThat(served.digest().kvSha256())
                .isEqualTo(checkpoint.get("kv_sha256").asText());
        assertThat(served.digest().metaSha256())
                .isEqualTo(checkpoint.get("meta_sha256").asText());
    }

    /**
     * Two objects named far above the real latest revision: one continues the chain by its name
     * but holds another delta's events (its last event is 3656, not what its name says), the other
     * starts above the chain's end. Neither decides the bump.
     */
    @Test
    void objectsNamedAboveTheChainsEndDoNotInflateTheBump() throws IOException {
        Path bucket = Fixtures.copyBucket(Fixtures.V0_23_0, "gzip", dir.resolve("bucket"));
        Path v2 = bucket.resolve("v2");
        Files.copy(
                v2.resolve("Incr-00003647-00003656-1795986621.gz"),
                v2.resolve("Incr-00003657-999999999-1795986630.gz"));
        Files.write(v2.resolve("Incr-00005000-888888888-1795986631.gz"), new byte[] {1, 2, 3});

        CommandRun run = restoreFrom(bucket, dir.resolve("data"), "offline", "--to-revision", "3000");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("revisionBump").get("revision").asLong())
                .isEqualTo(BUCKET_LATEST + BumpSetting.MARGIN);
        JsonNode latest = run.result().get("bucketLatest");
        assertThat(latest.get("revision").asLong()).isEqualTo(BUCKET_LATEST);
        assertThat(latest.get("object").asText()).isEqualTo("v2/Incr-00003647-00003656-1795986621.gz");
        assertThat(latest.get("damaged")).hasSize(1);
        assertThat(latest.get("damaged").get(0).get("object").asText())
                .isEqualTo("v2/Incr-00003657-999999999-1795986630.gz");
        assertThat(latest.get("damaged").get(0).get("reason").asText()).contains("its last event's is 3656");
        assertThat(latest.get("ignored"))
                .extracting(JsonNode::asText)
                .containsExactly("v2/Incr-00005000-888888888-1795986631.gz");
        assertThat(ExpectedState.serve(dir.resolve("data"), dir.resolve("serve"))
                        .revision())
                .isEqualTo(BUCKET_LATEST + BumpSetting.MARGIN);
    }

    @Test
    void bumpZeroLeavesThePointInTimeAsItIs() {
        JsonNode checkpoint = ExpectedState.stateJson(Fixtures.V0_23_0)
                .get("checkpoints_source")
                .get(2);
        long point = checkpoint.get("revision").asLong();
        Path dataDir = dir.resolve("data");

        CommandRun run = restore(dataDir, "offline", "--to-revision", Long.toString(point), "--bump-revision=0");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("revisionBump").isNull()).isTrue();
        ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("serve"));
        assertThat(served.revision()).isEqualTo(point);
        assertThat(served.digest().kvSha256())
                .isEqualTo(checkpoint.get("kv_sha256").asText());
    }

    @Test
    void aLatestStateRestoreIsBumpedOnlyWhenAsked() {
        CommandRun plain = restore(dir.resolve("plain"), "offline");
        assertThat(plain.exitCode()).as(plain.stderr()).isZero();
        assertThat(plain.result().get("revisionBump").isNull()).isTrue();

        CommandRun bumped = restore(dir.resolve("bumped"), "offline", "--bump-revision", "10", "--mark-compacted");

        assertThat(bumped.exitCode()).as(bumped.stderr()).isZero();
        JsonNode bump = bumped.result().get("revisionBump");
        assertThat(bump.get("amount").asLong()).isEqualTo(10);
        assertThat(bump.get("revision").asLong())
                .isEqualTo(bump.get("latestRevision").asLong() + 10);
        ExpectedState.Served served = ExpectedState.serve(dir.resolve("bumped"), dir.resolve("serve"));
        assertThat(served.revision()).isEqualTo(bump.get("revision").asLong());
        assertThat(served.digest())
                .isEqualTo(ExpectedState.serve(dir.resolve("plain"), dir.resolve("serve2"))
                        .digest());
    }

    @Test
    void theTwoFlagsGoTogetherAsEtcdutlRequires() {
        for (String[] flags : new String[][] {
            {"--bump-revision", "5"}, {"--mark-compacted"}, {"--bump-revision=0", "--mark-compacted"}
        }) {
            CommandRun run = restore(dir.resolve("refused"), "offline", flags);
            assertThat(run.exitCode()).as(String.join(" ", flags)).isEqualTo(2);
            assertThat(run.result().get("error").asText())
                    .contains("--mark-compacted is required with --bump-revision > 0, and only then");
        }
        assertThat(dir.resolve("refused")).doesNotExist();
    }

    @Test
    void anExtractedDataDirIsBumpedOnlyWhenAsked() {
        Path output = dir.resolve("secrets.etcd");
        CommandRun run = run(
                "extract",
                "--prefix",
                "/registry/secrets/",
                "--output",
                output.toString(),
                "--output-format=etcd",
                "--to-revision",
                "3000",
                "--bump-revision",
                "100",
                "--mark-compacted");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode bump = run.result().get("revisionBump");
        assertThat(bump.get("revision").asLong())
                .isEqualTo(bump.get("latestRevision").asLong() + 100);
        ExpectedState.Served served = ExpectedState.serve(output, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(bump.get("revision").asLong());
        assertThat(served.keys())
                .isNotEmpty()
                .allSatisfy(k -> assertThat(k.modRevision()).isLessThanOrEqualTo(3000));

        CommandRun unbumped = run(
                "extract",
                "--prefix",
                "/registry/secrets/",
                "--output",
                dir.resolve("plain.etcd").toString(),
                "--output-format=etcd",
                "--to-revision",
                "3000");
        assertThat(unbumped.exitCode()).as(unbumped.stderr()).isZero();
        assertThat(unbumped.result().get("revisionBump").isNull()).isTrue();
        assertThat(ExpectedState.serve(dir.resolve("plain.etcd"), dir.resolve("reader2"))
                        .keys())
                .isEqualTo(served.keys());

        CommandRun files = run(
                "extract",
                "--prefix",
                "/registry/secrets/",
                "--output",
                dir.resolve("files").toString(),
                "--bump-revision",
                "100",
                "--mark-compacted");
        assertThat(files.exitCode()).isEqualTo(2);
        assertThat(files.result().get("error").asText()).contains("files have none");
    }

    private CommandRun run(String command, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                command,
                "--store-container",
                Fixtures.bucket(Fixtures.V0_23_0, "gzip").toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString()));
        args.addAll(List.of(extra));
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
    }

    private CommandRun restore(Path dataDir, String engine, String... extra) {
        return restoreFrom(Fixtures.bucket(Fixtures.V0_23_0, "gzip"), dataDir, engine, extra);
    }

    private CommandRun restoreFrom(Path bucket, Path dataDir, String engine, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--store-container",
                bucket.toString(),
                "--data-dir",
                dataDir.toString(),
                "--scratch-dir",
                dir.resolve("scratch").toString(),
                "--engine=" + engine));
        args.addAll(List.of(extra));
        return CommandRun.run(
                WorkerContext::new,
                RestoreWorkerCommand::run,
                Map.of("PATH", System.getenv("PATH")),
                dir,
                args.toArray(String[]::new));
    }
}
