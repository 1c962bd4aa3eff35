package io.etcdworkers.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --log-format=json}: every line the worker logs on stderr is one JSON object; stdout stays the result. */
@Timeout(120)
class JsonLogIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void everyLogLineIsAJsonObjectWithItsValuesAsTypedFields() throws Exception {
        JarRun run = JarRun.run(
                JarRun.jar("worker.jar"),
                Map.of("PATH", System.getenv("PATH")),
                dir,
                List.of(),
                "verify-backup",
                "--log-format=json",
                "--store-container",
                Fixtures.bucket("gzip").toString());

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        List<String> lines = run.stderr().lines().filter(l -> !l.isBlank()).toList();
        assertThat(lines).hasSizeGreaterThan(2);
        List<String> messages = new ArrayList<>();
        for (String line : lines) {
            JsonNode entry = JSON.readTree(line);
            messages.add(entry.path("formattedMessage").asText());
            assertThat(entry.isObject()).as(line).isTrue();
            assertThat(entry.get("level").asText()).as(line).isIn("INFO", "WARN", "ERROR", "DEBUG");
            assertThat(entry.has("loggerName")).as(line).isTrue();
            assertThat(entry.has("formattedMessage")).as(line).isTrue();
        }
        assertThat(messages).contains("verifying", "verify-backup passed");
        // the line's values are fields of their own, typed, beside the message
        JsonNode passed = lines.stream()
                .map(JsonLogIT::read)
                .filter(e -> e.path("formattedMessage").asText().equals("verify-backup passed"))
                .findFirst()
                .orElseThrow();
        assertThat(passed.get("base")).as(passed.toString()).isNotNull();
        assertThat(passed.get("base").isTextual()).isTrue();
        assertThat(passed.get("base").asText()).startsWith("v2/Full-00000000-00000601-");
        for (String number : List.of("deltas", "events", "baseRevision", "lastRevision", "badObjects", "chainBreaks")) {
            assertThat(passed.get(number)).as(number + " in " + passed).isNotNull();
            assertThat(passed.get(number).isIntegralNumber())
                    .as(number + " in " + passed)
                    .isTrue();
        }
        assertThat(passed.get("baseRevision").asLong()).isEqualTo(601);
        assertThat(passed.get("lastRevision").asLong()).isGreaterThan(601);
        assertThat(passed.get("badObjects").asInt()).isZero();
        JsonNode verifying = lines.stream()
                .map(JsonLogIT::read)
                .filter(e -> e.path("formattedMessage").asText().equals("verifying"))
                .findFirst()
                .orElseThrow();
        assertThat(verifying.get("deltaBytes").isIntegralNumber())
                .as(verifying.toString())
                .isTrue();
        assertThat(verifying.get("deltaBytes").asLong()).isPositive();
        assertThat(JSON.readTree(run.stdout()).get("outcome").asText()).isEqualTo("succeeded");

        JarRun asText = JarRun.run(
                JarRun.jar("worker.jar"),
                Map.of("PATH", System.getenv("PATH")),
                dir,
                List.of(),
                "verify-backup",
                "--store-container",
                Fixtures.bucket("gzip").toString());
        assertThat(asText.exitCode()).as(asText.stderr()).isZero();
        assertThat(asText.stderr())
                .as("text lines: the message, then key=value")
                .containsPattern("INFO  VerifyBackupCommand - verify-backup passed "
                        + "base=v2/Full-00000000-00000601-\\S+ deltas=\\d+ events=\\d+ baseRevision=601 "
                        + "lastRevision=\\d+ badObjects=0 chainBreaks=0\\n");

        JarRun unknown = JarRun.run(
                JarRun.jar("worker.jar"),
                Map.of("PATH", System.getenv("PATH"), "ETCD_WORKER_LOG_FORMAT", "yaml"),
                dir,
                List.of(),
                "verify-backup",
                "--store-container",
                Fixtures.bucket("gzip").toString());
        assertThat(unknown.exitCode()).as("an unknown format is a usage error").isEqualTo(2);
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException(line, e);
        }
    }
}
