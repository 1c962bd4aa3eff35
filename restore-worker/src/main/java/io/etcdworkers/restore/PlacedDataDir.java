package io.etcdworkers.restore;

import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdVersion;
import java.util.List;
import java.util.Objects;

/**
 * What the placed data dir is good for. It is always a fresh {@code snapshot restore} of the
 * verified database with the target member's identity (offline: a copy of one, taken before the
 * verifying etcd started on the original), never a dir an etcd ran on: its WAL and
 * snap files carry no cluster version, so the member's etcd decides it on its first start (a
 * dir a 3.5 etcd ran on is refused by 3.4: "cluster cannot be downgraded").
 *
 * @param writtenBy the tool and version that wrote the dir, {@code "etcdutl 3.5.30"}
 * @param verifiedBy the etcd that served the verified keyspace, {@code "etcd 3.5.30"}
 * @param startsWith the etcd minor versions known to start it: those CI starts such a dir with
 *     (3.4 and 3.5, by {@code CrossVersionRestoreIT}) when the writer is one of them, else only
 *     the writer's own
 */
public record PlacedDataDir(String writtenBy, String verifiedBy, List<String> startsWith) {
    /** The minor versions CI restores with and starts every placed dir under. */
    static final List<String> TESTED_MINORS = List.of("3.4", "3.5");

    public PlacedDataDir {
        Objects.requireNonNull(writtenBy, "writtenBy");
        Objects.requireNonNull(verifiedBy, "verifiedBy");
        startsWith = List.copyOf(startsWith);
    }

    /** A dir written by {@code binaries}' restore tool from a database their etcd verified. */
    static PlacedDataDir of(EtcdBinaries binaries) {
        EtcdVersion v = binaries.version();
        String minor = v.major() + "." + v.minor();
        return new PlacedDataDir(
                binaries.snapshotRestoreTool().getFileName() + " " + v,
                "etcd " + v,
                TESTED_MINORS.contains(minor) ? TESTED_MINORS : List.of(minor));
    }
}
