package io.etcdworkers.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.testsupport.Fixtures;
import io.etcdworkers.testsupport.JarRun;
import java.nio.file.Path;
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
    void everyLogLineIsAJsonObjectWithLevelLoggerAndMessage() throws Exception {
        JarRun run = JarRun.run(JarRun.jar("worker.jar"), Map.of("PATH", System.getenv("PATH")), dir, List.of(),
                "verify-backup", "--log-format=json", "--store-container",
                Fixtures.bucket("gzip").toString());

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        List<String> lines = run.stderr().lines().filter(l -> !l.isBlank()).toList();
        assertThat(lines).hasSizeGreaterThan(2);
        List<String> messages = new java.util.ArrayList<>();
        for (String line : lines) {
            JsonNode entry = JSON.readTree(line);
            messages.add(entry.path("formattedMessage").asText());
            assertThat(entry.isObject()).as(line).isTrue();
            assertThat(entry.get("level").asText()).as(line).isIn("INFO", "WARN", "ERROR", "DEBUG");
            assertThat(entry.has("loggerName")).as(line).isTrue();
            assertThat(entry.has("formattedMessage")).as(line).isTrue();
        }
        assertThat(messages).anyMatch(m -> m.startsWith("verify-backup passed base=v2/Full-00000000-00000601"));
        assertThat(JSON.readTree(run.stdout()).get("outcome").asText()).isEqualTo("succeeded");

        JarRun text = JarRun.run(JarRun.jar("worker.jar"), Map.of("PATH", System.getenv("PATH"),
                "ETCD_WORKER_LOG_FORMAT", "yaml"), dir, List.of(), "verify-backup", "--store-container",
                Fixtures.bucket("gzip").toString());
        assertThat(text.exitCode()).as("an unknown format is a usage error").isEqualTo(2);
    }
}
