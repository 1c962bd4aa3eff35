package io.etcdworkers.rebuild;

import io.etcdworkers.bolt.BoltFormatException;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The bbolt structure of a downloaded base, checked before any engine uses it: a full snapshot
 * damaged before it was hashed has a matching SHA-256 trailer, and etcd's tools panic on it.
 */
final class BaseStructure {
    private BaseStructure() {}

    /**
     * @throws WorkerException {@link ErrorCode#CORRUPT_OBJECT} naming the object and the first fault
     */
    static void check(String object, Path file) throws IOException {
        try (BoltReader reader = BoltReader.open(file)) {
            reader.checkPages();
        } catch (BoltFormatException e) {
            throw new WorkerException(
                    ErrorCode.CORRUPT_OBJECT,
                    object + ": its database is not a sound bbolt file though its hash matches: "
                            + e.getMessage().replace(file.toString(), "the database"),
                    e);
        }
    }
}
