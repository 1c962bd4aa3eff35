package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.restore.cli.MemberOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Every flag's environment twin ({@code ETCD_WORKER_} + the long name in upper snake case), the
 * {@code STORAGE_CONTAINER} fallback etcd-backup-restore's deployments set, and that a flag on
 * the command line always wins; through {@link WorkerCli}, as the workers install the provider,
 * on the workers' own option classes.
 */
class EnvDefaultProviderTest {

    @Command(name = "probe")
    static final class Probe implements Callable<Integer> {
        @Mixin
        StoreOptions store = new StoreOptions();

        @Mixin
        MemberOptions member = new MemberOptions();

        @Mixin
        RebuildOptions etcd = new RebuildOptions();

        @Option(names = {"-k", "--keep-going"})
        boolean keepGoing;

        @Override
        public Integer call() {
            return 0;
        }
    }

    private static Probe parse(Map<String, String> env, String... args) {
        Probe probe = new Probe();
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        WorkerCli.commandLine(probe, env, sink, sink).parseArgs(args);
        return probe;
    }

    @ParameterizedTest
    @CsvSource({
        "--store-prefix, ETCD_WORKER_STORE_PREFIX",
        "--initial-advertise-peer-urls, ETCD_WORKER_INITIAL_ADVERTISE_PEER_URLS",
        "--etcd-bin-dir, ETCD_WORKER_ETCD_BIN_DIR",
        "-k, ETCD_WORKER_K"
    })
    void theTwinIsThePrefixAndTheNameInUpperSnakeCase(String option, String variable) {
        assertThat(EnvDefaultProvider.variableFor(option)).isEqualTo(variable);
    }

    @Test
    void twinsFillTheFlagsThatAreAbsentConvertedAsTheFlagWouldBe() {
        Probe probe = parse(Map.of(
                "ETCD_WORKER_STORAGE_PROVIDER", "aws",
                "ETCD_WORKER_STORE_PREFIX", "etcd-main",
                "ETCD_WORKER_NAME", "etcd-main-0",
                "ETCD_WORKER_MAX_FETCHERS", "8",
                "ETCD_WORKER_SCRATCH_DIR", "/scratch",
                "ETCD_WORKER_KEEP_GOING", "true"));

        assertThat(probe.store.provider).isEqualTo(StoreOptions.Provider.S3);
        assertThat(probe.store.prefix).isEqualTo("etcd-main");
        assertThat(probe.member.toMember().name()).isEqualTo("etcd-main-0");
        assertThat(probe.etcd.maxFetchers).isEqualTo(8);
        assertThat(probe.etcd.scratchDir).isEqualTo(Path.of("/scratch"));
        assertThat(probe.keepGoing).as("a short flag's twin is its long name's").isTrue();
    }

    @Test
    void aFlagOnTheCommandLineWinsOverItsTwin() {
        Map<String, String> env = Map.of(
                "ETCD_WORKER_STORE_PREFIX",
                "from-env",
                "ETCD_WORKER_MAX_FETCHERS",
                "8",
                "ETCD_WORKER_NAME",
                "from-env");

        Probe probe = parse(env, "--store-prefix=from-flag", "--max-fetchers", "2");

        assertThat(probe.store.prefix).isEqualTo("from-flag");
        assertThat(probe.etcd.maxFetchers).isEqualTo(2);
        assertThat(probe.member.toMember().name())
                .as("a twin whose flag is absent still counts")
                .isEqualTo("from-env");
    }

    @Test
    void withoutTwinsEachOptionKeepsItsOwnDefault() {
        Probe probe = parse(Map.of("PATH", "/usr/bin", "STORE_PREFIX", "not-a-twin"));

        assertThat(probe.store.provider).isEqualTo(StoreOptions.Provider.Local);
        assertThat(probe.store.prefix).isEmpty();
        assertThat(probe.store.container).isNull();
        assertThat(probe.member.toMember().name()).isEqualTo("default");
        assertThat(probe.etcd.maxFetchers).isEqualTo(new RebuildOptions().maxFetchers);
        assertThat(probe.keepGoing).isFalse();
    }

    @Test
    void anEmptyTwinIsAValueNotAnAbsence() {
        Probe probe = parse(Map.of("ETCD_WORKER_STORE_PREFIX", ""));

        assertThat(probe.store.prefix).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            nullValues = "-",
            value = {
                // STORAGE_CONTAINER, ETCD_WORKER_STORE_CONTAINER, --store-container, what wins
                "/from-storage-container, -, -, /from-storage-container",
                "/from-storage-container, /from-twin, -, /from-twin",
                "/from-storage-container, /from-twin, /from-flag, /from-flag",
                "/from-storage-container, -, /from-flag, /from-flag",
                "-, -, -, -"
            })
    void theContainerComesFromTheFlagThenItsTwinThenStorageContainer(
            String storageContainer, String twin, String flag, String expected) {
        Map<String, String> env = new HashMap<>();
        if (storageContainer != null) {
            env.put("STORAGE_CONTAINER", storageContainer);
        }
        if (twin != null) {
            env.put("ETCD_WORKER_STORE_CONTAINER", twin);
        }

        Probe probe = flag == null ? parse(env) : parse(env, "--store-container", flag);

        assertThat(probe.store.container).isEqualTo(expected);
    }

    @Test
    void storageContainerStandsInForTheContainerOnly() {
        Probe probe = parse(Map.of("STORAGE_CONTAINER", "/backups"));

        assertThat(probe.store.container).isEqualTo("/backups");
        assertThat(probe.store.prefix).isEmpty();
        assertThat(probe.store.endpointOverride).isNull();
    }

    @Test
    void theEnvironmentIsReadAsItWasWhenTheProviderWasMade() {
        Map<String, String> env = new HashMap<>(Map.of("ETCD_WORKER_STORE_PREFIX", "before"));
        EnvDefaultProvider provider = new EnvDefaultProvider(env);
        env.put("ETCD_WORKER_STORE_PREFIX", "after");
        Probe probe = new Probe();
        CommandLine cli = new CommandLine(probe);
        cli.setDefaultValueProvider(provider);

        cli.parseArgs();

        assertThat(probe.store.prefix).isEqualTo("before");
    }
}
