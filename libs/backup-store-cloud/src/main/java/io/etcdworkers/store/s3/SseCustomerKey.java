package io.etcdworkers.store.s3;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Objects;

/**
 * A customer-provided server-side encryption key (SSE-C), in the form the S3 headers need.
 *
 * <p>etcd-backup-restore takes {@code sseCustomerKey} as the raw key string (32 characters for
 * AES256) and hashes those bytes for the key MD5; the header then carries them base64-encoded.
 * {@link #fromRawKey} does the same, so buckets encrypted by {@code etcdbrctl} stay readable.
 *
 * @param algorithm the SSE-C algorithm, {@code AES256} on S3
 * @param keyBase64 the key as the {@code x-amz-server-side-encryption-customer-key} header
 * @param keyMd5Base64 the key MD5 as the {@code ...-customer-key-MD5} header
 */
public record SseCustomerKey(String algorithm, String keyBase64, String keyMd5Base64) {
    public SseCustomerKey {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(keyBase64, "keyBase64");
        Objects.requireNonNull(keyMd5Base64, "keyMd5Base64");
    }

    /** Builds the headers from the raw key string of an etcd-backup-restore credentials file. */
    public static SseCustomerKey fromRawKey(String rawKey, String algorithm) {
        if (rawKey.isEmpty() || algorithm.isBlank()) {
            throw new WorkerException(
                    ErrorCode.USAGE, "sseCustomerKey and sseCustomerAlgorithm must both be non-empty");
        }
        byte[] key = rawKey.getBytes(StandardCharsets.UTF_8);
        Base64.Encoder base64 = Base64.getEncoder();
        return new SseCustomerKey(algorithm, base64.encodeToString(key), base64.encodeToString(md5(key)));
    }

    private static byte[] md5(byte[] bytes) {
        try {
            // S3 defines the SSE-C key check as MD5; nothing else is accepted there.
            return MessageDigest.getInstance("MD5").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
    }

    /** Names the algorithm only: the key is a secret. */
    @Override
    public String toString() {
        return "SseCustomerKey[algorithm=" + algorithm + ", key=***]";
    }
}
