package io.etcdworkers.compaction.compact;

import io.etcdworkers.format.codec.Compression;

/**
 * The new full snapshot as it stands in the store.
 *
 * @param key its key
 * @param size its size as listed
 * @param compression its codec
 * @param databaseBytes size of the database inside it (without the hash trailer)
 * @param sha256 hex SHA-256 of the database (the trailer's value)
 */
public record UploadedSnapshot(String key, long size, Compression compression, long databaseBytes, String sha256) {}
