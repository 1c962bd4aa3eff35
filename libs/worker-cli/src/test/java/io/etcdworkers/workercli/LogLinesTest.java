package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The workers' log lines as text and as JSON, with the events' key-value pairs, through a context set up as theirs. */
@Timeout(60)
class LogLinesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LoggerContext context = new LoggerContext();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final PrintStream stderr = System.err;
    private Logger log;

    @BeforeEach
    void setUp() {
        context.setMDCAdapter(new LogbackMDCAdapter());
        LogSetup setup = new LogSetup();
        setup.setContext(context);
        setup.configure(context);
        // the STDERR appender as configured; its console stream writes to System.err as it is at each line
        System.setErr(new PrintStream(out, true, StandardCharsets.UTF_8));
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        context.start();
        root.setLevel(Level.DEBUG);
        log = context.getLogger("io.etcdworkers.rebuild.Phases");
    }

    @AfterEach
    void tearDown() {
        context.stop();
        System.setErr(stderr);
    }

    @Test
    void textLinesCarryThePairsAsKeyEqualsValueAfterTheMessage() {
        log.atInfo()
                .setMessage("phase done")
                .addKeyValue("phase", "select")
                .addKeyValue("ms", 12L)
                .log();
        log.atInfo().setMessage("no pairs").log();
        log.atWarn()
                .setMessage("skipping object")
                .addKeyValue("key", "v2/Full 1")
                .addKeyValue("reason", "")
                .addKeyValue("quote", "a\"b")
                .log();

        List<String> lines = lines();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).matches("\\S+ INFO  Phases - phase done phase=select ms=12");
        assertThat(lines.get(1)).endsWith(" - no pairs");
        assertThat(lines.get(2)).endsWith(" - skipping object key=\"v2/Full 1\" reason=\"\" quote=\"a\\\"b\"");
    }

    @Test
    void jsonLinesCarryThePairsAsTypedTopLevelFields() throws Exception {
        LogFormat.apply("json", context);
        Instant before = Instant.now();
        log.atInfo()
                .setMessage("restore done")
                .addKeyValue("revision", 1234567890123L)
                .addKeyValue("keys", 42)
                .addKeyValue("dataDir", "/var/etcd/data")
                .addKeyValue("defragmented", true)
                .addKeyValue("ratio", 0.25)
                .addKeyValue("took", Duration.ofMillis(1500))
                .addKeyValue("level", "a key named as a field")
                .log();
        log.atError()
                .setMessage("failed")
                .setCause(new IllegalStateException("boom"))
                .log();

        List<String> lines = lines();
        assertThat(lines).hasSize(2);
        JsonNode done = JSON.readTree(lines.get(0));
        assertThat(done.get("formattedMessage").asText()).isEqualTo("restore done");
        assertThat(done.get("level").asText()).isEqualTo("INFO");
        assertThat(done.get("loggerName").asText()).isEqualTo("io.etcdworkers.rebuild.Phases");
        assertThat(Instant.parse(done.get("timestamp").asText())).isBetween(before.minusSeconds(1), Instant.now());
        assertThat(done.get("revision").isIntegralNumber()).isTrue();
        assertThat(done.get("revision").asLong()).isEqualTo(1234567890123L);
        assertThat(done.get("keys").isInt()).isTrue();
        assertThat(done.get("keys").asInt()).isEqualTo(42);
        assertThat(done.get("dataDir").isTextual()).isTrue();
        assertThat(done.get("dataDir").asText()).isEqualTo("/var/etcd/data");
        assertThat(done.get("defragmented").isBoolean()).isTrue();
        assertThat(done.get("ratio").isDouble()).isTrue();
        assertThat(done.get("ratio").asDouble()).isEqualTo(0.25);
        assertThat(done.get("took").asText()).isEqualTo("PT1.5S");
        assertThat(done.get("kv.level").asText()).isEqualTo("a key named as a field");
        JsonNode failed = JSON.readTree(lines.get(1));
        assertThat(failed.get("level").asText()).isEqualTo("ERROR");
        assertThat(failed.get("throwable").asText()).startsWith("java.lang.IllegalStateException: boom");
        assertThat(failed.has("revision")).isFalse();

        LogFormat.apply("text", context);
        log.atInfo().setMessage("back to text").addKeyValue("revision", 7L).log();
        assertThat(lines().get(2)).endsWith(" - back to text revision=7");
    }

    private List<String> lines() {
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
