package io.etcdworkers.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.EtcdTestEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scratch etcd listens on loopback only: every listening TCP socket the etcd process owns
 * (found through its file descriptors in /proc and the kernel's socket tables) is bound to
 * 127.0.0.1, never to a wildcard or an external address.
 */
@Timeout(120)
class EtcdLoopbackOnlyIT {
    private static final String LISTEN = "0A";
    private static final String LOOPBACK_HEX = "0100007F";

    @TempDir
    Path tmp;

    @Test
    void everyListeningSocketIsOnLoopback() throws IOException {
        EtcdBinaries binaries =
                EtcdBinaries.locate(Optional.of(EtcdTestEnvironment.onPath().binDir()), "");
        EtcdMember member = EtcdMember.onFreeLoopbackPort();
        Path data = tmp.resolve("data");
        new SnapshotRestorer(binaries, tmp.resolve("scratch"), SnapshotRestorer.DEFAULT_TIMEOUT)
                .restore(new SnapshotRestorer.Request(
                        EtcdTestEnvironment.fullSnapshot(), member, data, Optional.empty(), false));
        try (EmbeddedEtcd etcd =
                EmbeddedEtcd.start(EmbeddedEtcdConfig.defaults(binaries, member, data, tmp.resolve("scratch")))) {
            Set<String> inodes = socketInodes(etcd.pid());
            List<String> listening = new ArrayList<>();
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                // read once: other processes (a parallel test fork) open and close sockets meanwhile
                List<String> lines = Files.readAllLines(Path.of(table));
                for (String line : lines.subList(1, lines.size())) {
                    String[] f = line.trim().split("\\s+");
                    if (f[3].equals(LISTEN) && inodes.contains(f[9])) {
                        listening.add(table + " " + f[1]);
                    }
                }
            }

            assertThat(listening)
                    .as("etcd listens on its client and peer ports")
                    .hasSizeGreaterThanOrEqualTo(2);
            assertThat(listening)
                    .allSatisfy(socket -> assertThat(socket).contains("/proc/net/tcp " + LOOPBACK_HEX + ":"));
        }
    }

    private static Set<String> socketInodes(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // a descriptor closed between listing and reading: not a listening socket
                }
            }
        }
        return inodes;
    }
}
