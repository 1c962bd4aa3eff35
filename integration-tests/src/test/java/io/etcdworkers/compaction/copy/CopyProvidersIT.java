package io.etcdworkers.compaction.copy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.compaction.cli.CompactionWorkerCommand;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.ProviderBucket;
import io.etcdworkers.testsupport.ProviderServers;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code copy} from each provider to the next on the real servers ({@link ProviderServers}): Local
 * to S3, S3 to ABS, ABS to GCS, GCS to Swift, Swift to Local. The source holds the v0.23.0 fixture's
 * gzip bucket (on Swift as etcdbrctl writes it: a dynamic large object, listed with size 0, and
 * its segments); the target gets every object under the same name and size, the source's credentials
 * come from {@code SOURCE_}-prefixed variables only (the target's Secret is another), and a restore
 * from the target alone gives the fixture's keyspace digest and revision as a real etcd serves them.
 * The output never holds either Secret's secret.
 */
@Timeout(600)
class CopyProvidersIT {
    @TempDir
    static Path serverDir;

    static ProviderServers servers;

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

    /** A side of the copy: its flags (unprefixed), environment, and a look at what lies there. */
    private record Side(List<String> flags, Map<String, String> env, Map<String, Long> objects, String secret) {}

    private Side side(String provider, String prefix, boolean fill, Path local) throws IOException {
        if (provider.equals("Local")) {
            if (fill) {
                Path v2 = Files.createDirectories(local.resolve(prefix)).resolve("v2");
                Fixtures.copyBucket("gzip", dir.resolve("staging"));
                Files.move(dir.resolve("staging/gzip/v2"), v2);
            }
            return new Side(
                    List.of("--storage-provider=Local", "--store-container=" + local, "--store-prefix=" + prefix),
                    Map.of("PATH", System.getenv("PATH")),
                    files(local.resolve(prefix)),
                    "");
        }
        ProviderBucket bucket = servers.bucket(provider);
        if (fill) {
            bucket.upload(prefix, Fixtures.bucket("gzip"));
        }
        List<String> flags = new ArrayList<>(List.of(
                "--storage-provider=" + provider,
                "--store-container=" + bucket.container(),
                "--store-prefix=" + prefix));
        flags.addAll(bucket.flags());
        Map<String, Long> objects = new TreeMap<>();
        bucket.objects(prefix + "/").forEach((key, size) -> objects.put(key.substring(prefix.length() + 1), size));
        return new Side(flags, bucket.env(dir.resolve(provider + "-" + prefix + "-secret")), objects, bucket.secret());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"Local, S3", "S3, ABS", "ABS, GCS", "GCS, Swift", "Swift, Local"})
    void copiesAndTheTargetRestoresToTheSourceState(String from, String to) throws IOException {
        String sourcePrefix = "copy-from-" + from.toLowerCase();
        String targetPrefix = "copy-" + from.toLowerCase() + "-to-" + to.toLowerCase();
        Side source = side(from, sourcePrefix, true, dir.resolve("local-source"));
        Side target = side(to, targetPrefix, false, dir.resolve("local-target"));

        Map<String, String> env = new HashMap<>(target.env());
        source.env().forEach((name, value) -> {
            if (!name.equals("PATH")) {
                env.put("SOURCE_" + name, value);
            }
        });
        List<String> args = new ArrayList<>(List.of("copy", "--snapstore-temp-directory=" + dir.resolve("tmp")));
        args.addAll(target.flags());
        source.flags().forEach(flag -> args.add(flag.replaceFirst("^--", "--source-")));
        CommandRun copy = CommandRun.run(
                WorkerContext::new, (c, a) -> CompactionWorkerCommand.run(c, a), env, dir, args.toArray(String[]::new));

        assertThat(copy.exitCode()).as(copy.stderr()).isZero();
        assertThat(copy.result().get("copiedCount").asInt()).isEqualTo(11);
        assertThat(copy.result().get("sourceStorageProvider").asText()).isEqualTo(from);
        Side copied = side(to, targetPrefix, false, dir.resolve("local-target"));
        // the fixture's objects, whatever the source lists (Swift: a 0-byte manifest and its segments each)
        assertThat(copied.objects()).isEqualTo(files(Fixtures.bucket("gzip")));

        List<String> restoreArgs = new ArrayList<>(
                List.of("restore", "--data-dir=" + dir.resolve("restored"), "--scratch-dir=" + dir.resolve("scratch")));
        restoreArgs.addAll(target.flags());
        CommandRun restore = CommandRun.run(
                WorkerContext::new, RestoreWorkerCommand::run, target.env(), dir, restoreArgs.toArray(String[]::new));

        assertThat(restore.exitCode()).as(restore.stderr()).isZero();
        JsonNode state = ExpectedState.stateJson();
        assertThat(restore.result().get("kvSha256").asText())
                .isEqualTo(state.get("kv_sha256").asText());
        assertThat(restore.result().get("metaSha256").asText())
                .isEqualTo(state.get("meta_sha256").asText());
        ExpectedState.Served served = ExpectedState.serve(dir.resolve("restored"), dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(state.get("revision").asLong());
        assertThat(served.keys()).containsExactlyElementsOf(ExpectedState.keys());
        String output = copy.stdout() + copy.stderr();
        for (String secret : List.of(source.secret(), target.secret())) {
            if (!secret.isEmpty()) {
                assertThat(output).doesNotContain(secret);
            }
        }
    }

    private static Map<String, Long> files(Path root) throws IOException {
        Map<String, Long> found = new TreeMap<>();
        if (!Files.isDirectory(root)) {
            return found;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(file)) {
                    found.put(root.relativize(file).toString(), Files.size(file));
                }
            }
        }
        return found;
    }
}
