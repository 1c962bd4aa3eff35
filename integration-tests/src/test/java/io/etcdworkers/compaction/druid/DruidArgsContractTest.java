package io.etcdworkers.compaction.druid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.compaction.cli.CompactCommand;
import io.etcdworkers.compaction.cli.EtcdbrctlOptions;
import io.etcdworkers.compaction.compact.CompactionConfig;
import io.etcdworkers.compaction.lease.LeaseRenewal;
import io.etcdworkers.compaction.lease.LeaseRenewalConfig;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.workercli.RebuildOptions;
import io.etcdworkers.workercli.StoreFactory;
import io.etcdworkers.workercli.StoreOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * etcd-druid's compaction Job arguments (test data rendered from its source, see the test
 * resources' README) are what the compaction worker accepts, and mean there what they mean to
 * etcdbrctl: each case is parsed by the worker's own command line, as the image's {@code etcdbrctl}
 * entry point hands it over, and the worker's configuration is built from the parse.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DruidArgsContractTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compaction-s3", "compaction-gcs-every-arg", "compaction-local", "compaction-no-provider"})
    void theCompactionWorkerAcceptsEveryArgumentDruidPasses(String name) {
        DruidJobArgs job = DruidJobArgs.read(name);
        ParseResult parsed = parse(job);

        assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("compact");
        for (String arg : job.args().subList(1, job.args().size())) {
            assertThat(parsed.subcommand().hasMatchedOption(arg.split("=", 2)[0]))
                    .as("%s matched", arg)
                    .isTrue();
        }
        assertThat(parsed.subcommand().unmatched()).isEmpty();
        CompactionConfig config = compact(parsed).config();
        assertThat(config.rebuild().scratchDir())
                .as("etcdbrctl's --data-dir: where the compaction's etcd works, on the Job's emptyDir")
                .isEqualTo(Path.of("/var/etcd/data/compaction.etcd"));
        assertThat(config.leaseRenewal())
                .as("--enable-snapshot-lease-renewal=true")
                .contains(new LeaseRenewalConfig(
                        "etcd-main-full-snap", LeaseRenewal.Policy.REQUIRED, Optional.of("shoot--p--s")));
    }

    @Test
    void theS3CaseReadsItsStoreAndQuotaAsEtcdbrctlDoes() {
        ParseResult parsed = parse(DruidJobArgs.read("compaction-s3"));
        CompactCommand command = compact(parsed);
        StoreOptions store = mixin(parsed, "store", StoreOptions.class);

        assertThat(store.provider).isEqualTo(StoreOptions.Provider.S3);
        assertThat(store.container).isEqualTo("bkt");
        assertThat(store.prefix).isEqualTo("shoot--p--s/etcd-main");
        CompactionConfig config = command.config();
        assertThat(config.rebuild().settings().quotaBytes()).isEqualTo(8L << 30);
        assertThat(config.snapshotTimeout()).isEqualTo(CompactionConfig.DEFAULT_SNAPSHOT_TIMEOUT);
        assertThat(config.defragment())
                .as("etcdbrctl's compact defragments by default too")
                .isTrue();
    }

    @Test
    void theTimeoutsDruidSetsLandWhereEtcdbrctlUsesThem() {
        ParseResult parsed = parse(DruidJobArgs.read("compaction-gcs-every-arg"));
        StoreOptions store = mixin(parsed, "store", StoreOptions.class);
        CompactionConfig config = compact(parsed).config();

        assertThat(store.provider).isEqualTo(StoreOptions.Provider.GCS);
        assertThat(store.endpointOverride).isEqualTo("https://storage.example.com");
        assertThat(config.snapshotTimeout()).isEqualTo(Duration.ofMinutes(20));
        assertThat(config.rebuild().replay().defragTimeout()).isEqualTo(Duration.ofMinutes(15));
        assertThat(config.rebuild().settings().quotaBytes()).isEqualTo(4L << 30);
    }

    @Test
    void everyArgumentWithoutEffectHereIsNamedInANote() {
        ParseResult parsed = parse(DruidJobArgs.read("compaction-gcs-every-arg"));
        EtcdbrctlOptions etcdbrctl = mixin(parsed, "etcdbrctl", EtcdbrctlOptions.class);
        boolean scratchGiven = mixin(parsed, "etcd", RebuildOptions.class).scratchDirGiven();

        assertThat(etcdbrctl.notes(scratchGiven))
                .extracting(note -> note.split(" ", 2)[0])
                .containsExactly(
                        WorkerFlags.RESTORATION_TEMP_SNAPSHOTS_DIR,
                        WorkerFlags.SNAPSTORE_TEMP_DIRECTORY,
                        WorkerFlags.METRICS_SCRAPE_WAIT_DURATION,
                        WorkerFlags.DELTA_SNAPSHOT_LEASE_NAME);
    }

    @Test
    void aLocalStoreIsWhereDruidMountsItUnderTheImagesHome() {
        for (String name : List.of("compaction-local", "compaction-no-provider")) {
            DruidJobArgs job = DruidJobArgs.read(name);
            StoreOptions store = mixin(parse(job), "store", StoreOptions.class);

            assertThat(store.provider).as(name).isEqualTo(StoreOptions.Provider.Local);
            assertThat(new StoreFactory(job.entryPointEnv(), Path.of("/")).localBucket(store))
                    .as("%s: druid's hostPath mount /home/nonroot/<container>", name)
                    .contains(Path.of("/home/nonroot/local-bkt"));
        }
    }

    @Test
    void bothNamesOfTheSnapshotTimeoutAtOnceMustAgree() {
        DruidJobArgs every = DruidJobArgs.read("compaction-gcs-every-arg");
        List<String> agreeing = append(every.args(), "--snapshot-timeout=20m");
        assertThat(compact(parse(every, agreeing)).config().snapshotTimeout()).isEqualTo(Duration.ofMinutes(20));

        List<String> disagreeing = append(every.args(), "--snapshot-timeout=5m");
        assertThatThrownBy(() -> compact(parse(every, disagreeing)).config())
                .isInstanceOf(WorkerException.class)
                .hasMessageContaining("disagree");
    }

    @Test
    void anExplicitScratchDirWinsOverDruidsDataDir() {
        DruidJobArgs job = DruidJobArgs.read("compaction-s3");
        ParseResult parsed = parse(job, append(job.args(), "--scratch-dir=/scratch"));

        assertThat(compact(parsed).config().rebuild().scratchDir()).isEqualTo(Path.of("/scratch"));
        assertThat(mixin(parsed, "etcdbrctl", EtcdbrctlOptions.class).notes(true))
                .first()
                .asString()
                .startsWith(WorkerFlags.DATA_DIR + " has no effect");
    }

    /**
     * Copy: the copy command takes etcdbrctl's flags exactly.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"copy-local-to-s3", "copy-gcs-to-s3-wait-final"})
    void theCopyCommandAcceptsEveryArgumentDruidsCopyTaskPasses(String name) {
        DruidJobArgs job = DruidJobArgs.read(name);
        CommandLine worker = job.workerCommandLine();

        ParseResult parsed = worker.parseArgs(job.args().toArray(String[]::new));

        assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("copy");
        for (String arg : job.args().subList(1, job.args().size())) {
            assertThat(parsed.subcommand().hasMatchedOption(arg.split("=", 2)[0]))
                    .as("%s matched", arg)
                    .isTrue();
        }
        assertThat(parsed.subcommand().unmatched()).isEmpty();
    }

    @Test
    void theWorkersParserStillRefusesWhatNoneOfThemKnows() {
        // the contract would be worthless if the parser accepted anything
        DruidJobArgs job = DruidJobArgs.read("compaction-s3");
        assertThatThrownBy(() -> parse(job, append(job.args(), "--no-such-etcdbrctl-flag=1")))
                .isInstanceOf(CommandLine.UnmatchedArgumentException.class);
    }

    static ParseResult parse(DruidJobArgs job) {
        return parse(job, job.args());
    }

    private static ParseResult parse(DruidJobArgs job, List<String> args) {
        return job.workerCommandLine().parseArgs(args.toArray(String[]::new));
    }

    private static CompactCommand compact(ParseResult parsed) {
        return (CompactCommand) parsed.subcommand().commandSpec().userObject();
    }

    private static <T> T mixin(ParseResult parsed, String name, Class<T> type) {
        return type.cast(parsed.subcommand().commandSpec().mixins().get(name).userObject());
    }

    private static List<String> append(List<String> args, String arg) {
        return Stream.concat(args.stream(), Stream.of(arg)).toList();
    }
}
