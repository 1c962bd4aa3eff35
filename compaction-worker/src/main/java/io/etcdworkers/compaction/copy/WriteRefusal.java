package io.etcdworkers.compaction.copy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;

/**
 * Tells a target that refuses a write (permission denied, an immutable or retained object, a
 * read-only file system) from other write failures: the first is {@link ErrorCode#STORE_WRITE_REFUSED},
 * which a rerun does not cure. The target was listed before, so a denial at the write is the
 * write's: the stores report it as {@link ErrorCode#STORE_NOT_FOUND} (403), the Local store as an
 * access denial beneath {@link ErrorCode#LOCAL_IO}.
 */
final class WriteRefusal {
    private WriteRefusal() {}

    static WorkerException of(ObjectStore target, String key, WorkerException e) {
        if (e.code() == ErrorCode.STORE_NOT_FOUND || (e.code() == ErrorCode.LOCAL_IO && deniedBeneath(e))) {
            return refused(target, key, e);
        }
        return e;
    }

    static WorkerException of(ObjectStore target, String key, IOException e) {
        if (denied(e)) {
            return refused(target, key, e);
        }
        return new WorkerException(
                ErrorCode.LOCAL_IO, target.describe() + ": writing " + key + " failed: " + e.getMessage(), e);
    }

    private static WorkerException refused(ObjectStore target, String key, Exception e) {
        return new WorkerException(
                ErrorCode.STORE_WRITE_REFUSED,
                target.describe() + " refused writing " + key + ": " + e.getMessage()
                        + " (nothing of it is visible; fix the target's permissions or retention)",
                e);
    }

    private static boolean deniedBeneath(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (denied(t)) {
                return true;
            }
        }
        return false;
    }

    private static boolean denied(Throwable t) {
        if (t instanceof AccessDeniedException) {
            return true;
        }
        return t instanceof FileSystemException fs
                && fs.getReason() != null
                && (fs.getReason().contains("Read-only file system")
                        || fs.getReason().contains("Operation not permitted"));
    }
}
