package io.etcdworkers.compaction.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.compaction.copy.CopyConfig;
import io.etcdworkers.workercli.StoreOptions;
import io.etcdworkers.workercli.WorkerContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * etcd-druid's EtcdCopyBackupsTask Job arguments (test data from its source at a named commit) parse
 * as our {@code copy} and mean what they mean to etcdbrctl: the target by the store flags, the source
 * by the {@code --source-} ones with the provider and prefix filled from the target when left out,
 * the container from {@code SOURCE_STORAGE_CONTAINER} and never from the target.
 */
class DruidCopyArgsTest {

    private static CopyCommand parse(String resource, Map<String, String> env) throws IOException {
        String[] args;
        try (InputStream in = DruidCopyArgsTest.class.getResourceAsStream("/etcd-druid/" + resource)) {
            args = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#"))
                    .toArray(String[]::new);
        }
        WorkerContext context = new WorkerContext(
                env,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                Clock.systemUTC(),
                Path.of("/work-dir"),
                Path.of("/no-termination-log"));
        CommandLine cli = CompactionWorkerCommand.commandLine(context);
        CommandLine.ParseResult parsed = cli.parseArgs(args);
        return (CopyCommand) parsed.subcommand().commandSpec().userObject();
    }

    @Test
    void localToS3() throws IOException {
        CopyCommand copy = parse("copy-job-args-local-to-s3.txt", Map.of());

        CopyConfig config = copy.config();
        assertThat(config.targetPrefix()).isEqualTo("/target");
        assertThat(config.sourcePrefix()).isEqualTo("/source");
        assertThat(config.tempDir()).isEqualTo(Path.of("/home/nonroot/data/tmp"));
        assertThat(config.maxBackups()).isEqualTo(-1);
        assertThat(config.maxBackupAgeDays()).isEqualTo(-1);
        assertThat(config.parallel()).isEqualTo(10);
        assertThat(config.waitForFinal()).isFalse();
        assertThat(copy.store.provider).isEqualTo(StoreOptions.Provider.S3);
        assertThat(copy.store.container).isEqualTo("target-container");
        StoreOptions source = copy.source.merged(copy.store, null);
        assertThat(source.provider).isEqualTo(StoreOptions.Provider.Local);
        assertThat(source.container).isEqualTo("source-container");
        assertThat(source.prefix).isEqualTo("/source");
    }

    @Test
    void gcsToS3WaitingForTheFinalSnapshot() throws IOException {
        CopyCommand copy = parse("copy-job-args-gcs-to-s3.txt", Map.of());

        CopyConfig config = copy.config();
        assertThat(config.maxBackups()).isEqualTo(2);
        assertThat(config.waitForFinal()).isTrue();
        assertThat(config.waitTimeout()).isEqualTo(Duration.ofMinutes(10));
        StoreOptions source = copy.source.merged(copy.store, null);
        assertThat(source.provider).isEqualTo(StoreOptions.Provider.GCS);
        assertThat(source.container).isEqualTo("gcs-src");
        assertThat(source.endpointOverride).isNull();
    }

    @Test
    void aSourceLeftOutTakesTheTargetsProviderAndPrefixButNeverItsContainerOrEndpoint() {
        WorkerContext context = new WorkerContext(
                Map.of("STORAGE_CONTAINER", "target-bucket", "SOURCE_STORAGE_CONTAINER", "source-bucket"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                Clock.systemUTC(),
                Path.of("/work-dir"),
                Path.of("/no-termination-log"));
        CommandLine cli = CompactionWorkerCommand.commandLine(context);
        CopyCommand copy = (CopyCommand) cli.parseArgs(
                        "copy",
                        "--storage-provider=ABS",
                        "--store-prefix=etcd-main",
                        "--store-endpoint-override=http://127.0.0.1:1")
                .subcommand()
                .commandSpec()
                .userObject();

        StoreOptions source = copy.source.merged(copy.store, context.env().get("SOURCE_STORAGE_CONTAINER"));
        assertThat(copy.store.container).isEqualTo("target-bucket");
        assertThat(source.provider).isEqualTo(StoreOptions.Provider.ABS);
        assertThat(source.prefix).isEqualTo("etcd-main");
        assertThat(source.container).isEqualTo("source-bucket");
        assertThat(source.endpointOverride).isNull();
        assertThat(copy.config().sourcePrefix()).isEqualTo("etcd-main");
    }
}
