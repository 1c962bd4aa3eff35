package io.etcdworkers.etcd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where etcd keeps its database in a data dir. */
public final class EtcdDataDir {
    private EtcdDataDir() {}

    /** A data dir's database file, {@code member/snap/db}, as etcd lays it out. */
    public static Path databaseFile(Path dataDir) {
        return dataDir.resolve("member").resolve("snap").resolve("db");
    }

    /** The size of the database a data dir holds ({@code member/snap/db}), 0 when there is none yet. */
    public static long databaseBytes(Path dataDir) {
        try {
            return Files.size(databaseFile(dataDir));
        } catch (IOException e) {
            return 0;
        }
    }
}
