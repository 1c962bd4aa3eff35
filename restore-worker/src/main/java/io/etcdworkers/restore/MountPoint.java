package io.etcdworkers.restore;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * A data dir that is itself a mount point (a volume mounted exactly at {@code --data-dir})
 * cannot be replaced by a rename: the worker builds next to it and renames into place. Found
 * up front by comparing the device of the dir with its parent's, instead of at the final rename.
 */
final class MountPoint {
    private MountPoint() {}

    /** Throws {@link ErrorCode#LOCAL_IO} when {@code target} is a directory on another device than its parent. */
    static void refuse(Path target) throws IOException {
        if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path parent = target.toAbsolutePath().getParent();
        Object dev = Files.getAttribute(target, "unix:dev", LinkOption.NOFOLLOW_LINKS);
        Object parentDev = Files.getAttribute(parent, "unix:dev");
        if (!dev.equals(parentDev)) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot restore into " + target + ": it is a mount point "
                            + "(another file system than its parent " + parent + "), and " + TargetDir.NOT_A_MOUNT_POINT
                            + ": mount the volume at the parent and give a dir inside it as --data-dir");
        }
    }
}
