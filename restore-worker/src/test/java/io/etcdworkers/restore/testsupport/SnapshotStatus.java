package io.etcdworkers.restore.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.restore.etcd.EtcdBinaries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * {@code snapshot status -w json} of a database file, by the tool of the etcd on PATH:
 * {@code etcdutl} from 3.5 on ({@code etcdctl}'s is deprecated there and prints a warning line
 * before its JSON), {@code etcdctl} with {@code ETCDCTL_API=3} on 3.4.
 */
public final class SnapshotStatus {
    private SnapshotStatus() {}

    public static JsonNode of(Path file, Path tmp) throws IOException, InterruptedException {
        EtcdBinaries binaries = EtcdTestEnvironment.binaries();
        Path tool = binaries.version().hasEtcdutl() && binaries.etcdutl().isPresent() ? binaries.etcdutl().get()
                : binaries.etcdctl().orElseThrow();
        Path out = Files.createTempFile(tmp, "status", ".json");
        Path err = Files.createTempFile(tmp, "status", ".err");
        ProcessBuilder pb = new ProcessBuilder(tool.toString(), "snapshot", "status", file.toString(), "-w", "json")
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("ETCDCTL_API", "3");
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(tool + " snapshot status hangs");
        }
        String text = Files.readString(out);
        assertThat(p.exitValue()).as(text + Files.readString(err)).isZero();
        return new ObjectMapper().readTree(text);
    }
}
