package io.etcdworkers.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(10)
class EtcdLogTailTest {

    @Test
    void keepsTheLastLinesJoined() {
        assertThat(LogTail.excerpt("a\nb\n\nc\nd\n", 2)).isEqualTo("c | d");
        assertThat(LogTail.excerpt("only", 5)).isEqualTo("only");
        assertThat(LogTail.excerpt("", 5)).isEqualTo("(no output)");
    }

    @Test
    void dropsTheGoroutineDumpOfAPanic() {
        String panic = String.join(
                "\n",
                "{\"level\":\"panic\",\"msg\":\"failed to open database\",\"error\":\"invalid database\"}",
                "panic: failed to open database",
                "",
                "goroutine 127 [running]:",
                "go.uber.org/zap/zapcore.CheckWriteAction.OnWrite(0x2?)",
                "\tgo.uber.org/zap/zapcore/entry.go:198 +0x65");

        assertThat(LogTail.excerpt(panic, 5))
                .isEqualTo("{\"level\":\"panic\",\"msg\":\"failed to open database\",\"error\":\"invalid database\"}"
                        + " | panic: failed to open database");
    }

    @Test
    void dropsZapsStacktraceField() {
        String fatal = "{\"level\":\"fatal\",\"msg\":\"discovery failed\",\"error\":\"listen tcp 127.0.0.1:1:"
                + " bind: address already in use\",\"stacktrace\":\"go.etcd.io/etcd/etcdmain.startEtcdOrProxyV2\\n"
                + "\\tgo.etcd.io/etcd/etcdmain/etcd.go:271 \\\"quoted\\\"\"}";

        assertThat(LogTail.excerpt(fatal, 1))
                .isEqualTo("{\"level\":\"fatal\",\"msg\":\"discovery failed\","
                        + "\"error\":\"listen tcp 127.0.0.1:1: bind: address already in use\"}");
    }

    @Test
    void cutsLongLines() {
        String excerpt = LogTail.excerpt("x".repeat(5000), 1);

        assertThat(excerpt).hasSize(LogTail.MAX_LINE_CHARS + 3).endsWith("...");
    }

    @Test
    void readsTheEndOfAFileAndToleratesAMissingOne(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("etcd.log");
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            big.append("line ").append(i).append('\n');
        }
        Files.writeString(log, big);

        assertThat(LogTail.excerpt(log, 2)).isEqualTo("line 19998 | line 19999");
        assertThat(LogTail.excerpt(dir.resolve("missing.log"), 2)).startsWith("(cannot read ");
    }
}
