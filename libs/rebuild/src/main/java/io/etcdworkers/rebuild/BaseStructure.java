package io.etcdworkers.rebuild;

import io.etcdworkers.bolt.PageCheck;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The bbolt structure of a downloaded base, checked before any engine uses it ({@link PageCheck},
 * stopping at the first fault): a full snapshot damaged before it was hashed has a matching
 * SHA-256 trailer, and etcd's tools panic on it.
 */
final class BaseStructure {
    private BaseStructure() {}

    /**
     * @throws WorkerException {@link ErrorCode#CORRUPT_OBJECT} naming the object and the first fault's page
     */
    static void check(String object, Path file) throws IOException {
        List<String> faults = PageCheck.faults(file, PageCheck.FIRST);
        if (!faults.isEmpty()) {
            throw new WorkerException(
                    ErrorCode.CORRUPT_OBJECT,
                    object + ": its bbolt structure is damaged (the damage is older than its hash, which matches): "
                            + faults.get(0));
        }
    }
}
