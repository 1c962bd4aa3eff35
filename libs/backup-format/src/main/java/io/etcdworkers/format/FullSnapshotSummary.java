package io.etcdworkers.format;

/**
 * What reading a full snapshot found.
 *
 * @param totalBytes decompressed size, trailer included
 * @param hasHash whether it ends in a SHA-256 trailer ({@code totalBytes % 512 == 32})
 * @param sha256 hex SHA-256 of the database bytes (without the trailer when there is one)
 */
public record FullSnapshotSummary(long totalBytes, boolean hasHash, String sha256) {

    /** Size of the bbolt database itself. */
    public long databaseBytes() {
        return hasHash ? totalBytes - HashTrailerInputStream.TRAILER_LENGTH : totalBytes;
    }
}
