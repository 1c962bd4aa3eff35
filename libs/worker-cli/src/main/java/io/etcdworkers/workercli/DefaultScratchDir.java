package io.etcdworkers.workercli;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.files.ProcessOwner;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scratch dir of a run given no {@code --scratch-dir}: a dir of the program's own under the
 * system temp dir, {@code <java.io.tmpdir>/etcd-workers-<uid>}, never the shared temp dir itself.
 * It is created {@code 0700}; an existing one is used only when it is a directory (not a link)
 * owned by this process's user, else the run is refused before anything is touched (exit 2):
 * in a temp dir every user may write, another user could have made that name first to have a
 * run write its keyspace where they can read it, or delete where they point.
 */
public final class DefaultScratchDir {
    static final String PREFIX = "etcd-workers-";
    private static final Logger LOG = LoggerFactory.getLogger(DefaultScratchDir.class);

    private DefaultScratchDir() {}

    /** The default scratch dir under {@code tempDir}, created or checked; see the class contract. */
    public static Path under(Path tempDir) {
        Path dir;
        try {
            dir = tempDir.resolve(PREFIX + ProcessOwner.uid());
            OwnerOnly.createDirectories(tempDir);
            try {
                OwnerOnly.createDirectory(dir);
                return dir;
            } catch (FileAlreadyExistsException exists) {
                return checked(dir);
            }
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot create the default scratch dir under " + tempDir + ": " + e.getMessage()
                            + " (give --scratch-dir)",
                    e);
        }
    }

    private static Path checked(Path dir) throws IOException {
        PosixFileAttributes attrs = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String refused = null;
        if (attrs.isSymbolicLink()) {
            refused = "it is a symbolic link";
        } else if (!attrs.isDirectory()) {
            refused = "it is not a directory";
        } else if (ProcessOwner.ownerOf(dir) != ProcessOwner.uid()) {
            refused = "it is owned by uid " + ProcessOwner.ownerOf(dir) + ", not by this process's uid "
                    + ProcessOwner.uid();
        }
        if (refused != null) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "refusing the default scratch dir " + dir + ": " + refused
                            + "; remove it, or give --scratch-dir a directory of your own");
        }
        if (!attrs.permissions().equals(OwnerOnly.DIR_MODE)) {
            LOG.info(
                    "narrowing the default scratch dir to 0700 path={} was={}",
                    dir,
                    PosixFilePermissions.toString(attrs.permissions()));
            Files.setPosixFilePermissions(dir, OwnerOnly.DIR_MODE);
        }
        return dir;
    }
}
