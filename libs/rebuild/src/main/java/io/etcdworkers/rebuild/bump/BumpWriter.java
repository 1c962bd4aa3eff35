package io.etcdworkers.rebuild.bump;

import io.etcdworkers.bolt.BoltFiles;
import io.etcdworkers.bolt.BoltFormatException;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.bolt.BoltWriter;
import io.etcdworkers.bolt.BucketWriter;
import io.etcdworkers.etcd.schema.Bucket;
import io.etcdworkers.etcd.schema.MetaKey;
import io.etcdworkers.etcd.schema.Revision;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;

/**
 * Writes into an etcd database file what {@code etcdutl snapshot restore --bump-revision N
 * --mark-compacted} (etcd 3.5.10 and later) writes, for etcd versions whose tools lack it (3.4):
 * <ul>
 *   <li>in bucket {@code key}, the revision key {@code {L+N, 0}} with an empty value, where
 *       {@code L} is the highest main revision of the bucket's keys (tombstones included): etcd
 *       takes its current revision from the last key, so it opens the file at {@code L+N}, and
 *       etcd-backup-restore's data dir check, which reads that same last key, sees {@code L+N};
 *   <li>in bucket {@code meta}, {@code scheduledCompactRev} = the same 17 bytes: etcd (3.4 and
 *       3.5) finishes that compaction when it opens the file, so every revision below the bump
 *       is compacted and a watch from before it is refused rather than served backwards.
 *       {@code finishedCompactRev} stays as it was.
 * </ul>
 * The file is rewritten through {@link BoltReader} and {@link BoltWriter} (the same page size,
 * every other bucket and entry copied as it is), so it costs one sequential copy of the database.
 * A SHA-256 trailer is written again over the new bytes when the source had one.
 */
public final class BumpWriter {
    private static final String PART_SUFFIX = ".bump.part";

    private BumpWriter() {}

    /**
     * Bumps {@code database} in place: the bumped copy is written beside it and renamed over it.
     *
     * @return the bump: the latest revision found and the new one
     * @throws BoltFormatException when the file is not a bbolt database etcd could have written
     *     (no {@code key} or {@code meta} bucket, a nested bucket, a key that is not a revision)
     */
    public static RevisionBump bumpInPlace(Path database, long amount) throws IOException {
        Path part = database.resolveSibling(database.getFileName() + PART_SUFFIX);
        Files.deleteIfExists(part);
        RevisionBump bump;
        try {
            bump = write(database, part, amount);
            Files.move(part, database, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(part);
        }
        return bump;
    }

    /** Writes {@code target} (which must not exist): {@code source} with the bump. */
    public static RevisionBump write(Path source, Path target, long amount) throws IOException {
        boolean trailer = Files.size(source) % BoltFiles.SECTOR == BoltFiles.TRAILER_BYTES;
        RevisionBump bump;
        try (BoltReader reader = BoltReader.open(source)) {
            long latest = latestRevision(source, reader);
            bump = new RevisionBump(latest, amount);
            try (BoltWriter writer = BoltWriter.create(target, reader.pageSize())) {
                for (byte[] name : reader.bucketNames()) {
                    copyBucket(source, reader, writer, name, bump);
                }
                writer.finish();
            }
        }
        if (trailer) {
            BoltFiles.appendSha256Trailer(target);
        }
        return bump;
    }

    /**
     * The highest main revision among the {@code key} bucket's keys of {@code database} (0 when it
     * has none): the {@code L} a bump raises, which may be below the revision etcd opens the file
     * at when the last revisions were deletions compacted away.
     */
    public static long latestRevision(Path database) throws IOException {
        try (BoltReader reader = BoltReader.open(database)) {
            return latestRevision(database, reader);
        }
    }

    /** The highest main revision among the {@code key} bucket's keys. */
    static long latestRevision(Path source, BoltReader reader) throws IOException {
        for (Bucket needed : List.of(Bucket.KEY, Bucket.META)) {
            if (!reader.hasBucket(needed.bytes())) {
                throw new BoltFormatException(source + ": no bucket " + needed.label() + ": not an etcd database");
            }
        }
        long[] latest = {0};
        reader.forEach(Bucket.KEY.bytes(), (key, value, isBucket) -> {
            Revision revision = Revision.parse(key)
                    .orElseThrow(() -> new BoltFormatException(
                            source + ": key bucket entry of " + key.length + " bytes is not a revision"));
            if (revision.main() < 0) {
                throw new BoltFormatException(source + ": negative revision " + revision + " in the key bucket");
            }
            latest[0] = Math.max(latest[0], revision.main());
        });
        return latest[0];
    }

    private static void copyBucket(Path source, BoltReader reader, BoltWriter writer, byte[] name, RevisionBump bump)
            throws IOException {
        byte[] bumped = new Revision(bump.revision(), 0).bytes();
        byte[] scheduled = MetaKey.SCHEDULED_COMPACT_REV.bytes();
        boolean meta = Bucket.META.is(name);
        boolean[] scheduledWritten = {false};
        try (BucketWriter bucket = writer.bucket(name)) {
            bucket.setSequence(reader.sequence(List.of(name)));
            reader.forEach(name, (key, value, isBucket) -> {
                if (isBucket) {
                    throw new BoltFormatException(source + ": nested bucket in bucket "
                            + new String(name, StandardCharsets.US_ASCII) + ": not an etcd database");
                }
                if (meta && !scheduledWritten[0] && Arrays.compareUnsigned(key, scheduled) >= 0) {
                    bucket.put(scheduled, bumped);
                    scheduledWritten[0] = true;
                    if (Arrays.equals(key, scheduled)) {
                        return;
                    }
                }
                bucket.putOwned(key, value);
            });
            if (meta && !scheduledWritten[0]) {
                bucket.put(scheduled, bumped);
            }
            if (Bucket.KEY.is(name)) {
                // above every key in the bucket: its main revision is above every main revision
                bucket.put(bumped, new byte[0]);
            }
        }
    }
}
