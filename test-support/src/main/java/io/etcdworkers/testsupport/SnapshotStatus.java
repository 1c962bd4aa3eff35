package io.etcdworkers.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code snapshot status -w json} of a database file, by the tool of the etcd on PATH:
 * {@code etcdutl} from 3.5 on ({@code etcdctl}'s is deprecated there and prints a warning line
 * before its JSON), {@code etcdctl} with {@code ETCDCTL_API=3} on 3.4.
 */
public final class SnapshotStatus {
    private SnapshotStatus() {}

    /** The status JSON; fails (with what the tool said) when the tool refuses the file. */
    public static JsonNode of(Path file) throws IOException {
        EtcdInstall etcd = EtcdTestEnvironment.onPath();
        return new ObjectMapper()
                .readTree(etcd.run(etcd.snapshotTool(), "snapshot", "status", file.toString(), "-w", "json"));
    }
}
