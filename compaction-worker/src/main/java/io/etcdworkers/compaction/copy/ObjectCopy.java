package io.etcdworkers.compaction.copy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Copies one object: its stored bytes are read into a file of their own under the temp dir,
 * checked there ({@link SnapshotCheck}), and the source listed again to see that the object did
 * not change meanwhile; only then uploaded through the target store's writer (visible only once
 * whole), and read back from the target: the same length and SHA-256, and the same check. A
 * failure at any step leaves nothing of the object in the target; a source object that changed is
 * {@link ErrorCode#SOURCE_CHANGED}, a write the target refuses {@link ErrorCode#STORE_WRITE_REFUSED}.
 */
final class ObjectCopy {
    /** One object copied: its key in the target, length, SHA-256 and what was checked. */
    record Copied(String targetKey, long size, String sha256, String checked) {}

    private final ObjectStore source;
    private final ObjectStore target;
    private final Path tempDir;
    private final CopyProgress progress;

    ObjectCopy(ObjectStore source, ObjectStore target, Path tempDir, CopyProgress progress) {
        this.source = source;
        this.target = target;
        this.tempDir = tempDir;
        this.progress = progress;
    }

    Copied copy(SnapshotObject object, String targetKey) throws InterruptedException {
        Path held = tempDir.resolve(UUID.randomUUID() + ".part");
        try {
            long read = download(object, held);
            SnapshotCheck.Checked checked;
            try (InputStream in = Files.newInputStream(held)) {
                checked = SnapshotCheck.check(object.key(), object.name(), in);
            } catch (WorkerException e) {
                throw changedOr(object, e);
            } catch (IOException e) {
                throw new WorkerException(ErrorCode.LOCAL_IO, "cannot read back " + held + ": " + e.getMessage(), e);
            }
            // a listing of size 0 gives no size: a Swift dynamic large object's manifest lists so
            if (object.size() != 0 && read != object.size()) {
                throw changedOr(
                        object,
                        new WorkerException(
                                ErrorCode.TRUNCATED_OBJECT,
                                object.key() + ": read " + read + " bytes, the listing said " + object.size()));
            }
            unchanged(object);
            ObjectInfo written = upload(held, targetKey);
            if (written.size() != 0 && written.size() != checked.size()) {
                throw new WorkerException(
                        ErrorCode.TRUNCATED_OBJECT,
                        target.describe() + ": " + targetKey + " lists " + written.size() + " bytes after the upload, "
                                + checked.size() + " were written");
            }
            SnapshotCheck.Checked back = readBack(object, targetKey);
            if (back.size() != checked.size() || !back.sha256().equals(checked.sha256())) {
                throw new WorkerException(
                        ErrorCode.HASH_MISMATCH,
                        target.describe() + ": " + targetKey + " reads back as " + back.size() + " bytes with SHA-256 "
                                + back.sha256() + ", written were " + checked.size() + " bytes with "
                                + checked.sha256());
            }
            return new Copied(targetKey, checked.size(), checked.sha256(), checked.what());
        } finally {
            try {
                Files.deleteIfExists(held);
            } catch (IOException e) {
                // the temp dir is removed whole at the end
            }
        }
    }

    /** Checks an object already in the target, as {@link #copy} checks what it wrote. */
    SnapshotCheck.Checked readBack(SnapshotObject object, String targetKey) throws InterruptedException {
        try (InputStream in = target.open(targetKey)) {
            return SnapshotCheck.check(target.describe() + ": " + targetKey, object.name(), in);
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.STORE_UNAVAILABLE,
                    target.describe() + ": reading " + targetKey + " failed: " + e.getMessage(),
                    e);
        }
    }

    private long download(SnapshotObject object, Path held) {
        byte[] buf = new byte[256 * 1024];
        long total = 0;
        try (InputStream in = source.open(object.key());
                OutputStream out = OwnerOnly.newOutputStream(held)) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                total += n;
                progress.bytes(n);
            }
        } catch (WorkerException e) {
            throw changedOr(object, e);
        } catch (IOException e) {
            throw changedOr(
                    object,
                    new WorkerException(
                            ErrorCode.STORE_UNAVAILABLE, object.key() + ": read failed: " + e.getMessage(), e));
        }
        return total;
    }

    private ObjectInfo upload(Path held, String targetKey) {
        try (ObjectWriter writer = target.create(targetKey)) {
            try (InputStream in = Files.newInputStream(held)) {
                in.transferTo(writer.out());
            }
            return writer.commit();
        } catch (WorkerException e) {
            throw WriteRefusal.of(target, targetKey, e);
        } catch (IOException e) {
            throw WriteRefusal.of(target, targetKey, e);
        }
    }

    /** {@link ErrorCode#SOURCE_CHANGED} when the source object changed since it was listed, else {@code e}. */
    private WorkerException changedOr(SnapshotObject object, WorkerException e) {
        if (e.code() == ErrorCode.INTERRUPTED || e.code() == ErrorCode.USAGE) {
            return e;
        }
        Optional<String> change = change(object);
        return change.map(c -> new WorkerException(ErrorCode.SOURCE_CHANGED, c + " (" + e.getMessage() + ")", e))
                .orElse(e);
    }

    private void unchanged(SnapshotObject object) {
        Optional<String> change = change(object);
        if (change.isPresent()) {
            throw new WorkerException(ErrorCode.SOURCE_CHANGED, change.get());
        }
    }

    /** How the object differs from its listing now, if it does; a vanished object is {@link ErrorCode#OBJECT_VANISHED}. */
    private Optional<String> change(SnapshotObject object) {
        ObjectInfo now = source.list(object.key()).stream()
                .filter(i -> i.key().equals(object.key()))
                .findFirst()
                .orElseThrow(() -> new WorkerException(
                        ErrorCode.OBJECT_VANISHED,
                        object.key() + " disappeared from " + source.describe() + " while it was copied"));
        ObjectInfo then = object.info();
        if (now.size() != then.size() || !Objects.equals(now.lastModified(), then.lastModified())) {
            return Optional.of(String.format(
                    "%s changed in %s while it was copied: listed %d bytes modified %s, now %d bytes modified %s; "
                            + "nothing of it was written to the target, run again",
                    object.key(), source.describe(), then.size(), then.lastModified(), now.size(), now.lastModified()));
        }
        return Optional.empty();
    }
}
