package io.etcdworkers.restore.extract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.restore.HistoryModel;
import io.etcdworkers.restore.cli.RestoreWorkerCommand;
import io.etcdworkers.testsupport.CommandRun;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.workercli.WorkerContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code extract} of one prefix gives exactly the keys under it at the revision asked for, as the
 * independent history model computes them: Kubernetes protobuf values (the fixture's Secrets) kept
 * byte for byte with their kind read from the envelope, JSON values (ConfigMaps) also
 * pretty-printed; and as a data dir, one that etcd serves with those keys and no other.
 */
@Timeout(300)
class ExtractIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FIXTURE = Fixtures.V0_23_0;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1} at {2}")
    @CsvSource({
        "offline, /registry/secrets/, 3000",
        "replay, /registry/secrets/, 3000",
        "offline, /registry/configmaps/ns-00, 3656"
    })
    void theFilesAreThePrefixsKeysAtThatRevision(String engine, String prefix, long revision) throws IOException {
        List<ExpectedState.Key> expected =
                under(prefix, HistoryModel.of(FIXTURE, "gzip").at(revision));
        assertThat(expected).as("the fixture has keys under %s", prefix).hasSizeGreaterThan(20);
        Path output = dir.resolve("out");

        CommandRun run = extract(engine, prefix, output, "--to-revision", Long.toString(revision));

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode result = run.result();
        assertThat(result.get("kind").asText()).isEqualTo("extract");
        assertThat(result.get("finalRevision").asLong()).isEqualTo(revision);
        assertThat(result.get("extractedKeys").asLong()).isEqualTo(expected.size());
        if (engine.equals("offline")) {
            assertThat(result.get("keys").asLong())
                    .as("the offline engine folded the prefix alone")
                    .isEqualTo(expected.size());
        }
        List<ExpectedState.Key> written = new ArrayList<>();
        for (String line : Files.readAllLines(output.resolve("index.jsonl"))) {
            JsonNode entry = JSON.readTree(line);
            Path value = output.resolve(entry.get("path").asText() + ".value");
            JsonNode meta = JSON.readTree(
                    output.resolve(entry.get("path").asText() + ".meta.json").toFile());
            byte[] bytes = Files.readAllBytes(value);
            written.add(new ExpectedState.Key(
                    meta.get("keyBase64").asText(),
                    Base64.getEncoder().encodeToString(bytes),
                    meta.get("createRevision").asLong(),
                    meta.get("modRevision").asLong(),
                    meta.get("version").asLong(),
                    meta.get("lease").asLong()));
            assertThat(meta.get("key").asText()).startsWith(prefix);
            assertThat(meta.get("revision").asLong()).isEqualTo(revision);
            switch (meta.get("encoding").asText()) {
                case "kubernetes-protobuf" -> {
                    assertThat(new String(bytes, 0, 4, StandardCharsets.ISO_8859_1))
                            .isEqualTo("k8s\0");
                    assertThat(meta.get("kind").asText()).isEqualTo("Secret");
                    assertThat(meta.get("apiVersion").asText()).isEqualTo("v1");
                }
                case "json" ->
                    assertThat(JSON.readTree(output.resolve(entry.get("path").asText() + ".json")
                                    .toFile()))
                            .isEqualTo(JSON.readTree(bytes));
                default -> assertThat(meta.get("encoding").asText()).isEqualTo("bytes");
            }
        }
        assertThat(written).containsExactlyElementsOf(expected);
        assertThat(dir.resolve("out.part")).doesNotExist();
        if (prefix.equals("/registry/secrets/")) {
            assertThat(result.get("kinds").get("Secret").asLong()).isGreaterThan(20);
        } else {
            assertThat(result.get("encodings").get("json").asLong()).isGreaterThan(20);
        }
    }

    @Test
    void asADataDirEtcdServesThePrefixAloneAtThatRevision() {
        List<ExpectedState.Key> expected =
                under("/registry/secrets/", HistoryModel.of(FIXTURE, "gzip").at(3000));
        Path output = dir.resolve("secrets.etcd");

        CommandRun run = extract("auto", "/registry/secrets/", output, "--to-revision", "3000", "--output-format=etcd");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.result().get("engine").asText()).isEqualTo("offline");
        ExpectedState.Served served = ExpectedState.serve(output, dir.resolve("reader"));
        assertThat(served.revision()).isEqualTo(3000);
        assertThat(served.keys()).containsExactlyElementsOf(expected);

        CommandRun replay = extract("replay", "/registry/secrets/", dir.resolve("other.etcd"), "--output-format=etcd");
        assertThat(replay.exitCode()).isEqualTo(2);
        assertThat(replay.result().get("error").asText()).contains("needs the offline engine");
        assertThat(dir.resolve("other.etcd")).doesNotExist();
    }

    private static List<ExpectedState.Key> under(String prefix, List<ExpectedState.Key> keys) {
        String encoded = prefix;
        return keys.stream()
                .filter(k ->
                        new String(Base64.getDecoder().decode(k.key()), StandardCharsets.UTF_8).startsWith(encoded))
                .toList();
    }

    private CommandRun extract(String engine, String prefix, Path output, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "extract",
                "--store-container",
                Fixtures.bucket(FIXTURE, "gzip").toString(),
                "--prefix",
                prefix,
                "--output",
                output.toString(),
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
